import { describe, expect, it } from 'vitest';
import { CHECKS } from '../src/index.js';
import { causeOf } from '../src/report/causes.js';
import { startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import { resultOf, runAgainst } from './support/run-kit.js';

// When writes are refused, ids given twice or pets lost, the report leads with that cause and the
// checks it breaks say so, instead of sending implementers after the symptom.
describe('a report on a server whose writes go wrong', () => {
  it('lists a lost write before the list checks it breaks, and those name it', async () => {
    const { report } = await runAgainst({ faults: ['create-not-persisted'] });
    const failed = report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
    const cause = failed.indexOf('createPet.readable-by-id');
    expect(cause, failed.join(', ')).toBeGreaterThanOrEqual(0);
    const listFailures = failed.filter((id) => id.startsWith('listPets.'));
    expect(listFailures.length).toBeGreaterThan(0);
    for (const id of listFailures) {
      expect(failed.indexOf(id), id).toBeGreaterThan(cause);
      expect(resultOf(report, id).message, id).toMatch(
        /\d+ created, 0 readable: see createPet\.readable-by-id/,
      );
    }
  });

  it('names duplicated ids as the reason a limit cannot be judged', async () => {
    const { report } = await runAgainst({ faults: ['create-reuses-ids'] });
    expect(resultOf(report, 'createPet.distinct-ids').outcome).toBe('fail');
    const limit = resultOf(report, 'listPets.limit-100');
    expect(limit.outcome).toBe('skip');
    expect(limit.message).toMatch(/\d+ created, \d+ distinct ids: see createPet\.distinct-ids/);
  });

  it('runs the checks that judge the writes before every check that needs the pets', () => {
    const ids = CHECKS.map((c) => c.id);
    const lastCause = Math.max(
      ...['createPet.created', 'createPet.distinct-ids', 'createPet.readable-by-id'].map((id) =>
        ids.indexOf(id),
      ),
    );
    const firstList = ids.findIndex((id) => id.startsWith('listPets.'));
    expect(lastCause).toBeLessThan(firstList);
  });
});

describe('failures of one cause', () => {
  it('are one entry in the reports, the cause first and the checks it breaks folded under it', async () => {
    const server = await startFakeServer({ faults: ['auth-error-body-malformed'] });
    try {
      const args = ['--base-url', server.baseUrl, '--api-key', server.apiKey, '--only', 'auth'];
      const pretty = await runCli(args);
      expect(pretty.exitCode).toBe(1);
      const cause =
        'not a valid Error body: code is required; message is required; status is required';
      const causes = pretty.stdout.match(/^ {2}Root cause of \d+ failures: .*$/gm) ?? [];
      expect(causes).toEqual([expect.stringMatching(/^ {2}Root cause of \d+ failures: /)]);
      expect(causes[0]).toContain(cause);
      // One failure shown in full; the others named on one line.
      expect(pretty.stdout.match(/^ {2}✗ /gm)).toHaveLength(1);
      expect(pretty.stdout).toMatch(/\n {4}the same for: auth\.listPets\.empty-token, /);
      const markdown = (await runCli([...args, '--reporter', 'markdown'])).stdout;
      expect(markdown).toContain('#### `auth.listPets.missing-header`');
      expect(markdown).not.toContain('#### `auth.listPets.empty-token`');
      expect(markdown).toContain('- `auth.listPets.empty-token` (');
      expect(markdown).toContain(`**Root cause of `);
      expect(markdown).toMatch(/<summary>the same cause fails \d+ more checks<\/summary>/);
    } finally {
      await server.close();
    }
  });
});

describe('the cause of a failure', () => {
  it("is what follows the status on its first line, without the count of the check's other cases", () => {
    const result = (message: string) =>
      ({ id: 'x', outcome: 'fail', message }) as Parameters<typeof causeOf>[0];
    const cause = 'not a valid Error body: status is required';
    expect(causeOf(result(`GET /pets answered 401: ${cause}\nreplay: curl`))).toBe(cause);
    expect(causeOf(result(`GET /pets answered 401: ${cause} (and 3 more)`))).toBe(cause);
    expect(causeOf(result('GET /pets returned 3 pets'))).toBeUndefined();
  });
});
