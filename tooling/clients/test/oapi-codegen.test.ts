import { cp, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GET_PET_SUNSET_AT } from '@animal-store/contract';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { HERE, outputDir, run } from './helpers/generated.js';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';
import { type GoTools, nativeTools } from './helpers/native-tools.js';
import { expectedScenario, JUDGED_IN_SCENARIO } from './helpers/scenario.js';

const judged = judgedApi(inject('api'), 'oapi-codegen');
let tools: GoTools;
let out: string;

beforeAll(async () => {
  // oapi-codegen and staticcheck, pinned, built with Go into the cache on first use.
  tools = await nativeTools('go');
  out = await outputDir('oapi-codegen');
  await cp(`${HERE}scenarios/go`, out, { recursive: true });
  // oapi-codegen reads OpenAPI 3.0 (kin-openapi): the document's 3.0 rendering.
  const answer = await fetch(`${(await judged).base}/openapi-3.0.json`);
  expect(answer.status).toBe(200);
  await writeFile(`${out}/openapi-3.0.json`, await answer.text());
  const generated = await run(tools['oapi-codegen'], [
    '-generate',
    'types,client',
    '-package',
    'animalstore',
    `${out}/openapi-3.0.json`,
  ]);
  await run('mkdir', ['-p', `${out}/animalstore`]);
  await writeFile(`${out}/animalstore/client.gen.go`, generated);
}, 15 * 60_000);

/** Go on PATH, with the module cache and build cache where Go keeps them. */
const goEnv = () => ({
  ...process.env,
  PATH: `${dirname(tools.go)}:${process.env.PATH}`,
  GOFLAGS: '-mod=readonly',
});

describe('a client from oapi-codegen', () => {
  it('builds the scenario and runs it: paging by the Next-After header, Error bodies typed', async () => {
    await run(tools.go, ['build', '-o', `${out}/scenario`, '.'], { cwd: out, env: goEnv() });
    const api = await judged;
    const printed = await run(`${out}/scenario`, [], {
      cwd: out,
      env: { ...goEnv(), ANIMAL_STORE_BASE_URL: api.base, ANIMAL_STORE_API_KEY: api.apiKey },
    });
    expect(JSON.parse(printed)).toEqual(expectedScenario());
  });

  it('sends requests in which the conformance kit finds nothing wrong', async () => {
    await expectNothingWrong((await judged).report(), JUDGED_IN_SCENARIO);
  });

  it('offers the error codes as constants of one ErrorCode type', async () => {
    const code = await readFile(`${out}/animalstore/client.gen.go`, 'utf8');
    expect(code).toMatch(/^type ErrorCode string$/m);
    expect(code).toMatch(/Code\s+ErrorCode\s+`json:"code"`/);
    expect(code).toMatch(/ErrorCodeNotFound\s+ErrorCode = "not_found"/);
  });

  it('makes staticcheck report the deprecated GetPet with its removal date', async () => {
    const day = GET_PET_SUNSET_AT.toISOString().slice(0, 10);
    const report = await run(tools.staticcheck, ['./...'], { cwd: out, env: goEnv() }).then(
      () => '',
      (error: Error) => error.message,
    );
    const line = report.split('\n').find((l) => l.includes('SA1019') && l.includes('GetPet'));
    expect(line, report).toBeDefined();
    expect(line).toContain(`removed on ${day}`);
  });
});
