import { PYTHON_VENV } from '@animal-store/test-support';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { HERE, outputDir, run } from './helpers/generated.js';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';
import { expectedScenario, JUDGED_IN_SCENARIO } from './helpers/scenario.js';

const judged = judgedApi(inject('api'), 'openapi-python-client');
let venv: string;

beforeAll(async () => {
  // openapi-python-client, pinned, from PyPI (python3 with venv is needed; .ci/run installs it).
  venv = (await run('bash', [PYTHON_VENV, HERE])).trim();
}, 10 * 60_000);

describe('a client from openapi-python-client', () => {
  it('generates from the served document and runs the scenario', async () => {
    const api = await judged;
    const out = await outputDir('openapi-python-client');
    // With the venv's bin first on PATH its ruff formats the generated code, as the tool expects.
    const env = { ...process.env, PATH: `${venv}/bin:${process.env.PATH}` };
    await run(
      `${venv}/bin/openapi-python-client`,
      [
        'generate',
        '--url',
        `${api.base}/openapi.json`,
        '--meta',
        'none',
        '--output-path',
        `${out}/animal_store_client`,
      ],
      { env },
    );
    const printed = await run(`${venv}/bin/python`, [`${HERE}scenarios/openapi_python_client.py`], {
      env: {
        ...env,
        PYTHONPATH: out,
        ANIMAL_STORE_BASE_URL: api.base,
        ANIMAL_STORE_API_KEY: api.apiKey,
      },
    });
    expect(JSON.parse(printed)).toEqual(expectedScenario());
  });

  it('sends requests in which the conformance kit finds nothing wrong', async () => {
    await expectNothingWrong((await judged).report(), JUDGED_IN_SCENARIO);
  });
});
