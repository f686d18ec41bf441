// The spec as an OpenAPI document: exactly what the spec states, every gap left open. Schemathesis
// (pinned, tooling/schemathesis) run with it finds nothing on conforming servers that fill the
// gaps differently, and finds the fault of broken ones; so does the traffic judge, holding
// Schemathesis' traffic through the kit's proxy.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SpecErrorBody, SpecNewPet, SpecPet } from '@animal-store/contract';
import { runProcess, TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ConformanceReport,
  specOpenApiDocument,
  specOpenApiDocument30,
} from '../src/index.js';
import { type FakeServerOptions, startFakeServer } from './support/fake-server.js';
import { notPassed } from './support/run-kit.js';
import {
  JUDGED_ON_EVERY_SERVER,
  type SchemathesisRun,
  schemathesisCommand,
  schemathesisThroughProxy,
} from './support/schemathesis.js';

const temp = new TemporaryFolder('conformance-spec-openapi-');
afterAll(() => temp.remove());

// biome-ignore lint/suspicious/noExplicitAny: the document is walked by path in assertions
type Json = Record<string, any>;
const doc = specOpenApiDocument as Json;

describe('the spec as an OpenAPI document', () => {
  it('states the spec schemas of the contract, with no limit the spec does not set', () => {
    const schemas = doc.components.schemas;
    const props = (s: unknown) => Object.keys((s as Json).properties);
    expect(props(schemas.NewPet)).toEqual(props(SpecNewPet));
    expect(props(schemas.Pet)).toEqual(props(SpecPet));
    expect(schemas.Error).toEqual(JSON.parse(JSON.stringify(SpecErrorBody)));
    expect(schemas.NewPet.required).toEqual(['name', 'categoryId']);
    expect(schemas.Pet.required).toEqual(['id', 'name', 'categoryId']);
    for (const schema of [schemas.NewPet, schemas.Pet]) {
      expect(schema.additionalProperties).toBeUndefined();
      expect(schema.properties.name).toEqual({ type: 'string', description: "The animal's name" });
      expect(Object.keys(schema.properties.categoryId).sort()).toEqual([
        'description',
        'format',
        'type',
      ]);
      expect(schema.properties.status).toEqual({ $ref: '#/components/schemas/PetStatus' });
    }
    expect(schemas.PetStatus.enum).toEqual(['available', 'pending', 'sold']);
    expect(schemas.PetStatus.default).toBeUndefined();
  });

  it('has the three operations with the statuses the spec names, any other as a default Error', () => {
    const ops = [
      ['/pets', 'get', 'listPets', ['200', '401', 'default']],
      ['/pets', 'post', 'createPet', ['201', '400', '401', 'default']],
      ['/pets/{petId}', 'get', 'getPet', ['200', '401', '404', 'default']],
    ] as const;
    expect(Object.keys(doc.paths).sort()).toEqual(['/pets', '/pets/{petId}']);
    for (const [path, method, id, statuses] of ops) {
      const op = doc.paths[path][method];
      expect(op.operationId).toBe(id);
      expect(Object.keys(op.responses).sort()).toEqual([...statuses].sort());
      for (const status of statuses.filter((s) => !/^2/.test(s))) {
        expect(op.responses[status].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      // No header the spec does not name (X-Request-Id, Location, Link, ...).
      for (const answer of Object.values(op.responses))
        expect((answer as Json).headers).toBeUndefined();
    }
    expect(doc.paths['/pets/{petId}'].get.deprecated).toBe(true);
    const limit = doc.paths['/pets'].get.parameters[0];
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('renders as OpenAPI 3.0.3 for tools that need it', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((specOpenApiDocument30 as Json).openapi).toBe('3.0.3');
    expect(Object.keys((specOpenApiDocument30 as Json).paths)).toEqual(Object.keys(doc.paths));
  });
});

/** The ids of the checks in `report` with `outcome`. */
const outcomes = (report: ConformanceReport, outcome: string) =>
  report.results.filter((r) => r.outcome === outcome).map((r) => r.id);

/**
 * The README's Schemathesis recipe as printed (from `spec=` to the Prism comment), run in a
 * folder laid out as a user's, with the server's URL in place of the example one.
 */
async function readmeRecipe(
  server: FakeServerOptions,
): Promise<{ code: number | null; out: string }> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```sh\n(spec=[\s\S]*?)# Prism/.exec(readme)?.[1];
  expect(block).toContain('schemathesis');
  const command = await schemathesisCommand();
  const fake = await startFakeServer(server);
  try {
    const work = mkdtempSync(join(temp.path, 'recipe-'));
    const packageDir = join(work, 'node_modules/@animal-store/conformance');
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'spec-openapi.json'), JSON.stringify(specOpenApiDocument));
    const script = (block as string).replaceAll('https://pets.example.com/v1', fake.baseUrl);
    const run = await runProcess('bash', ['-euo', 'pipefail', '-c', script], {
      env: { PATH: `${dirname(command)}:${process.env.PATH}`, HOME: work, KEY: fake.apiKey },
      cwd: work,
    });
    return { code: run.exitCode, out: `${run.stdout}${run.stderr}` };
  } finally {
    await fake.close();
  }
}

/**
 * Schemathesis with the spec document against a fake server, through the kit's proxy: what
 * Schemathesis found, and what the traffic judge made of its traffic, which the kit did not
 * send. `options` narrows the run (one operation, stop at the first failure) where a test looks
 * for one fault.
 */
async function schemathesis(
  server: FakeServerOptions,
  options: readonly string[] = [],
): Promise<SchemathesisRun> {
  const fake = await startFakeServer(server);
  try {
    const target = { baseUrl: fake.baseUrl, apiKey: fake.apiKey, folder: temp.path };
    return await schemathesisThroughProxy(target, options);
  } finally {
    await fake.close();
  }
}

describe.concurrent('Schemathesis with the spec document', () => {
  it.each<[string, FakeServerOptions]>([
    ['the reference', {}],
    ['a server filling every gap otherwise', { lenient: true }],
    [
      'a server with its own error codes, huge ids and no status',
      { choices: ['own-error-codes', 'huge-ids', 'omits-status', 'clamps-limit'] },
    ],
  ])('finds no failure on %s, nor does the traffic judge on its traffic', async (_, server) => {
    const { code, out, traffic } = await schemathesis(server);
    expect(code, out).toBe(0);
    expect(outcomes(traffic, 'fail'), notPassed(traffic).join('\n')).toEqual([]);
    // Valid and invalid requests to each operation, keyless ones too: the judge held each kind.
    expect(outcomes(traffic, 'pass')).toEqual(expect.arrayContaining(JUDGED_ON_EVERY_SERVER));
  });

  it('passes, with the README recipe as printed, a server that answers 501 to methods it does not implement', async () => {
    const { code, out } = await readmeRecipe({ choices: ['unknown-methods-501'] });
    expect(code, out).toBe(0);
    // Whole words: a run's random seed or a temporary name may hold the digits 501.
    expect(out).not.toMatch(/\bTRACE\b|\b501\b/);
  });

  // Each fault lies in one operation: Schemathesis tests the operations one by one, so the
  // others could only add findings, and one finding is all a row looks for.
  it.each([
    [
      'get-404-as-html',
      'errors.json-body',
      'getPet',
      /content_type_conformance|Undocumented Content-Type/i,
    ],
    [
      'list-500-on-limit-0',
      'errors.no-server-errors',
      'listPets',
      /not_a_server_error|Server error/i,
    ],
    [
      'auth-skipped-on-list',
      'auth.listPets.missing-header',
      'listPets',
      /accepts requests without authentication/i,
    ],
  ] as const)('finds the fault of a server that has %s, and the judge fails it under %s', async (fault, judged, operation, said) => {
    const { code, out, traffic } = await schemathesis({ faults: [fault] }, [
      ...['--include-operation-id', operation, '--max-failures', '1'],
    ]);
    expect(code, out).not.toBe(0);
    expect(out).toMatch(said);
    expect(outcomes(traffic, 'fail'), notPassed(traffic).join('\n')).toEqual([judged]);
  });
});
