import { cp, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { HERE, outputDir, run } from './helpers/generated.js';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';
import { nativeTools, type RustTools } from './helpers/native-tools.js';
import { expectedScenario, JUDGED_IN_SCENARIO } from './helpers/scenario.js';

const judged = judgedApi(inject('api'), 'progenitor');
let tools: RustTools;
let out: string;

/** cargo on PATH; build outputs in the cached target directory, so dependencies build once. */
const cargoEnv = () => ({
  ...process.env,
  PATH: `${dirname(tools.cargo)}:${process.env.PATH}`,
  CARGO_TARGET_DIR: tools['cargo-target'],
});

beforeAll(async () => {
  // cargo-progenitor, pinned, built from crates.io into the cache on first use.
  tools = await nativeTools('rust');
  out = await outputDir('progenitor');
  // progenitor reads only OpenAPI 3.0: the document's 3.0 rendering.
  const answer = await fetch(`${(await judged).base}/openapi-3.0.json`);
  expect(answer.status).toBe(200);
  await writeFile(`${out}/openapi-3.0.json`, await answer.text());
  await run(
    tools['cargo-progenitor'],
    [
      'progenitor',
      '-i',
      `${out}/openapi-3.0.json`,
      '-o',
      `${out}/animal-store-client`,
      '-n',
      'animal-store-client',
      '-v',
      '0.1.0',
    ],
    { env: cargoEnv() },
  );
  await cp(`${HERE}scenarios/rust`, `${out}/scenario`, { recursive: true });
  // The first build compiles the dependencies into the cached target directory.
  await run(tools.cargo, ['build', '--locked', '--quiet'], {
    cwd: `${out}/scenario`,
    env: cargoEnv(),
  });
}, 40 * 60_000);

describe('a client from progenitor', () => {
  it('runs the scenario: paging by the Next-After header, every Error body decoded', async () => {
    const api = await judged;
    const printed = await run(`${tools['cargo-target']}/debug/scenario`, [], {
      env: { ...process.env, ANIMAL_STORE_BASE_URL: api.base, ANIMAL_STORE_API_KEY: api.apiKey },
    });
    expect(JSON.parse(printed)).toEqual(expectedScenario());
  });

  it('sends requests in which the conformance kit finds nothing wrong', async () => {
    await expectNothingWrong((await judged).report(), JUDGED_IN_SCENARIO);
  });

  it('offers the error codes as one enum', async () => {
    const code = await readFile(`${out}/animal-store-client/src/lib.rs`, 'utf8');
    expect(code).toMatch(/pub enum ErrorCode \{/);
    expect(code).toMatch(/pub code: ErrorCode,/);
  });
});
