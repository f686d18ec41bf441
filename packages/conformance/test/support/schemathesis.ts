// Schemathesis (pinned, tooling/schemathesis) with the spec's OpenAPI document, run through the
// kit's proxy in front of a server, and the traffic judge's report on that traffic, which the kit
// did not send: spec-openapi.test.ts runs it in front of fake servers,
// framework-apps-fuzzed.test.ts in front of framework apps.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@animal-store/test-support';
import {
  type ConformanceReport,
  specOpenApiDocument,
  startProxy,
  TrafficJudge,
} from '../../src/index.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/** The checks that hold a server to the document alone (no data acceptance: the spec leaves name rules open). */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'ignored_auth',
].join(',');

/** The Schemathesis configuration the README's recipe writes. */
const UNNAMED_METHODS_LEFT_OUT = '[phases.coverage]\nunexpected-methods = []\n';

/**
 * What the traffic judge passes on every conforming server's answers to Schemathesis: its requests
 * reach every operation, with and without a key, with valid and invalid members and queries. On a
 * framework app, it passes each of them the kit passes there.
 */
export const JUDGED_ON_EVERY_SERVER = [
  'auth.getPet.missing-header',
  'auth.listPets.missing-header',
  'createPet.body-not-object',
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'createPet.invalid-status',
  'createPet.malformed-json',
  'createPet.missing-category-id',
  'createPet.missing-name',
  'errors.error-schema',
  'errors.json-body',
  'errors.no-server-errors',
  'errors.pet-fields',
  'errors.status-matches',
  'errors.strict-json',
  'errors.success-status',
  'getPet.path-boundaries',
  'listPets.at-most-limit',
  'listPets.status-filter.sold',
];

/** The path of the pinned Schemathesis command, installed on first use; every run shares it. */
let installed: Promise<string> | undefined;
export function schemathesisCommand(): Promise<string> {
  installed ??= runProcess('bash', [join(repo, 'tooling/schemathesis/install.sh')], {
    env: process.env,
    cwd: repo,
  }).then((install) => {
    if (install.exitCode !== 0) throw new Error(`no Schemathesis:\n${install.stderr}`);
    return install.stdout.trim();
  });
  return installed;
}

/** The server a run goes to, through the proxy, and where the run keeps its files. */
export interface SchemathesisTarget {
  /** The server's base URL, ending in /v1. */
  readonly baseUrl: string;
  /** The key Schemathesis sends in every request's Authorization. */
  readonly apiKey: string;
  /** The folder a run makes its own folder in, for the document, its configuration and HOME. */
  readonly folder: string;
  /** The traffic's source, as the judge's report names it. */
  readonly source?: string;
}

/** What Schemathesis found (its exit code and output), and the judge's report on its traffic. */
export interface SchemathesisRun {
  readonly code: number | null;
  readonly out: string;
  readonly traffic: ConformanceReport;
}

/**
 * Schemathesis with the spec document against `target`, through the kit's proxy: what
 * Schemathesis found, and what the traffic judge made of its traffic. `options` narrows the run
 * (one operation, stop at the first failure) where a test looks for one fault.
 */
export async function schemathesisThroughProxy(
  target: SchemathesisTarget,
  options: readonly string[] = [],
): Promise<SchemathesisRun> {
  const command = await schemathesisCommand();
  const judge = new TrafficJudge({ base: target.baseUrl, source: target.source ?? 'Schemathesis' });
  const proxy = await startProxy({ target: target.baseUrl, onExchange: (e) => void judge.add(e) });
  try {
    const work = mkdtempSync(join(target.folder, 'schemathesis-'));
    const file = join(work, 'spec-openapi.json');
    writeFileSync(file, JSON.stringify(specOpenApiDocument));
    // As the README's recipe: no method the spec does not name.
    writeFileSync(join(work, 'schemathesis-spec.toml'), UNNAMED_METHODS_LEFT_OUT);
    const run = await runProcess(
      command,
      [
        '--no-color',
        ...['--config-file', join(work, 'schemathesis-spec.toml')],
        'run',
        file,
        ...['--url', `${proxy.origin}/v1`],
        ...['-H', `Authorization: Bearer ${target.apiKey}`],
        ...['--checks', CHECKS, '--mode', 'all', '--max-examples', '15', '--seed', '4646'],
        ...['--phases', 'examples,coverage,fuzzing', '--generation-database', 'none'],
        ...options,
      ],
      { env: { PATH: process.env.PATH, HOME: work }, cwd: work },
    );
    await proxy.close();
    return { code: run.exitCode, out: `${run.stdout}${run.stderr}`, traffic: await judge.report() };
  } finally {
    await proxy.close();
  }
}
