// Prism's proxy (pinned devDependency) in front of the reference API, validating every exchange
// against the spec document while the kit runs through it: the API's answers meet the document.
// The kit sends bad requests on purpose, so Prism reports request violations; none may be about
// a response. The kit's verdict through Prism is not judged: Prism's proxy alters some answers.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoggedProcess, runProcess, startLogged } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = fileURLToPath(new URL('../', import.meta.url));
const API_MAIN = join(repo, 'apps/api/dist/main.js');
const PRISM = join(pkg, 'node_modules/@stoplight/prism-cli/dist/index.js');
const SPEC = join(pkg, 'spec-openapi.json');
// Prism needs Node >= 24.18: the servers run on the root's Node 24 (its node-linux-* dependency),
// whatever Node runs this test; the kit runs on the Node under test.
const NODE_24 = join(repo, `node_modules/node-${process.platform}-${process.arch}/bin/node`);

const started: LoggedProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
});

describe("Prism's proxy in front of the reference API with the spec document", () => {
  it('reports no response violation while the kit runs through it', async () => {
    for (const file of [API_MAIN, PRISM, SPEC, NODE_24]) {
      expect(existsSync(file), `${file} is missing: run pnpm install and pnpm build`).toBe(true);
    }
    const key = `prism_${randomBytes(24).toString('hex')}`;
    const env = { PATH: process.env.PATH ?? '' };
    const api = await startLogged(NODE_24, [API_MAIN], {
      cwd: repo,
      env: { ...env, API_KEYS: key, RATE_LIMIT_REQUESTS: '0', PORT: '0', HOST: '127.0.0.1' },
      ready: /"url":"([^"]+)","msg":"listening"/,
    });
    started.push(api);
    const apiUrl = api.match[1] as string;
    const prism = await startLogged(
      NODE_24,
      [PRISM, 'proxy', SPEC, apiUrl, '--errors=false', '--host', '127.0.0.1', '--port', '0'],
      { cwd: pkg, env: { ...env, NO_COLOR: '1' }, ready: /Prism is listening on (http:\/\/\S+)/ },
    );
    started.push(prism);
    const prismUrl = prism.match[1] as string;

    // The spec document's paths are the operations' own (/pets): Prism serves them at its root.
    const kit = await runProcess(
      process.execPath,
      [
        'bin/animal-store-conformance.js',
        '--base-url',
        prismUrl,
        '--api-key',
        key,
        '--reporter',
        'json',
      ],
      { cwd: pkg, env },
    );
    await prism.stop();
    await api.stop();

    // The kit ran its checks through the proxy: a verdict (0 PASS, 1 FAIL, 3 INCOMPLETE) and a
    // report with results, not a run that could not start (2).
    expect([0, 1, 3], kit.stderr).toContain(kit.exitCode);
    const report = JSON.parse(kit.stdout) as { results: unknown[] };
    expect(report.results.length).toBeGreaterThan(0);

    const violations = prism
      .output()
      .split('\n')
      .filter((line) => line.includes('Violation'));
    // Prism validated the exchanges: the kit's deliberate bad requests are reported.
    expect(violations.some((line) => /Violation: request\b/.test(line))).toBe(true);
    expect(violations.filter((line) => !/Violation: request\b/.test(line))).toEqual([]);
  });
});
