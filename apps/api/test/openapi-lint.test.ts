import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from './helpers/api.js';

const REDOCLY = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url));
const temp = new TemporaryFolder('openapi-lint-');
afterAll(() => temp.remove());

describe('the served OpenAPI documents', () => {
  it.each([
    'openapi.json',
    'openapi-3.0.json',
  ])('%s passes Redocly’s recommended rules with no error and no warning', async (name) => {
    const api = await startTestApi();
    const answer = await fetch(`${api.base}/${name}`);
    expect(answer.status).toBe(200);
    const file = join(temp.path, name);
    writeFileSync(file, await answer.text());
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ['lint', '--extends', 'recommended', '--format', 'json', file],
      {
        // No telemetry or update check: CI reaches no other host.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
