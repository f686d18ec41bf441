import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { auth, startTestApi } from './helpers/api.js';
import { scrape } from './helpers/scrape.js';

const RULES_DIR = fileURLToPath(new URL('../../../deploy/prometheus/', import.meta.url));
const RUNBOOK = fileURLToPath(new URL('../../../docs/operations.md', import.meta.url));
const run = promisify(execFile);

/** Runs promtool in the rules' folder; fails, never skips, when it is not installed. */
async function promtool(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: RULES_DIR });
    return stdout + stderr;
  } catch (error) {
    const { code, stdout, stderr } = error as NodeJS.ErrnoException & {
      stdout?: string;
      stderr?: string;
    };
    if (code === 'ENOENT') {
      throw new Error(
        "promtool is not on PATH: install Debian's prometheus package (.ci/run does)",
      );
    }
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

describe('the Prometheus rules in deploy/prometheus', () => {
  it('are valid rules', async () => {
    expect(await promtool('check', 'rules', 'rules.yml')).toContain('SUCCESS');
  });

  it('fire each alert on the series that should, and only on those (promtool test rules)', async () => {
    expect(await promtool('test', 'rules', 'rules.test.yml')).toContain('SUCCESS');
  });

  it('name only metrics the API serves', async () => {
    const rules = await readFile(`${RULES_DIR}rules.yml`, 'utf8');
    const named = new Set(
      [...rules.matchAll(/\b([a-z][a-z0-9_]*)\{/g)]
        .map((m) => (m[1] as string).replace(/_(bucket|count|sum)$/, ''))
        .filter((name) => name !== 'up'),
    );
    const api = await startTestApi({ rateLimit: { requests: 100, windowSeconds: 60 } });
    await fetch(`${api.base}/pets`, { headers: auth });
    const served = await scrape(api.origin);
    expect(named.size).toBeGreaterThan(0);
    for (const name of named) expect(served, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
  });

  it('give each alert a test, a runbook section and a link to it', async () => {
    const rules = await readFile(`${RULES_DIR}rules.yml`, 'utf8');
    const tests = await readFile(`${RULES_DIR}rules.test.yml`, 'utf8');
    const runbook = await readFile(RUNBOOK, 'utf8');
    const alerts = [...rules.matchAll(/^ +- alert: (\w+)$/gm)].map((m) => m[1] as string);
    expect(alerts.length).toBeGreaterThan(0);
    const sections = [...runbook.matchAll(/^### (\w+)$/gm)].map((m) => m[1]);
    expect(sections.sort()).toEqual([...alerts].sort());
    for (const alert of alerts) {
      expect(tests, alert).toMatch(new RegExp(`alertname: ${alert}\\b`));
      expect(rules, alert).toContain(`runbook: docs/operations.md#${alert.toLowerCase()}`);
    }
  });
});
