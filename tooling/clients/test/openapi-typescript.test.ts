import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, inject, it } from 'vitest';
import { HERE, outputDir, run } from './helpers/generated.js';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';
import { expectedScenario, JUDGED_IN_SCENARIO } from './helpers/scenario.js';

const judged = judgedApi(inject('api'), 'openapi-typescript');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('a client from openapi-typescript and openapi-fetch', () => {
  it('generates from the served document, type-checks the scenario and runs it', async () => {
    const api = await judged;
    const out = await outputDir('openapi-typescript');
    const ast = await openapiTS(new URL(`${api.base}/openapi.json`));
    await writeFile(`${out}/schema.d.ts`, astToString(ast));
    await run(process.execPath, [TSC, '-p', `${HERE}scenarios/tsconfig.json`]);

    // A path the type checker cannot follow: the scenario needs the generated file.
    const scenarioPath = `${HERE}scenarios/openapi-typescript.ts`;
    const { scenario } = (await import(scenarioPath)) as {
      scenario(base: string, key: string): Promise<Record<string, unknown>>;
    };
    expect(await scenario(api.base, api.apiKey)).toEqual(expectedScenario());
  });

  it('sends requests in which the conformance kit finds nothing wrong', async () => {
    await expectNothingWrong((await judged).report(), JUDGED_IN_SCENARIO);
  });
});
