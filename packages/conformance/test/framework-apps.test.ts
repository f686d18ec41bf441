// The kit against real web frameworks rather than fakes of them: the same Express app, written
// from the spec with Express's defaults, on Express 4 and on Express 5, and a Fastify app and a
// Flask app written the same way (Flask in Python, pinned in frameworks/flask/requirements.txt).
// What the kit fails is each framework's doing, named below; no false alarm may come from any.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PYTHON_VENV, runProcess, startLogged } from '@animal-store/test-support';
import express4 from 'express4';
import express5 from 'express5';
import { describe, expect, it } from 'vitest';
import { type ConformanceReport, runConformance } from '../src/index.js';
import { expressPetApp } from './support/express-pet-app.js';
import { fastifyPetApp } from './support/fastify-pet-app.js';
import { notPassed } from './support/run-kit.js';

const API_KEY = 'express-key-0123456789';

/** Runs the kit against the app on `express`, listening on 127.0.0.1 for the run alone. */
async function runOn(express: typeof express4 | typeof express5) {
  const server = expressPetApp(express, API_KEY).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const failed = (report: ConformanceReport) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

const message = (report: ConformanceReport, id: string) =>
  report.results.find((r) => r.id === id)?.message;

const FLASK = fileURLToPath(new URL('./frameworks/flask/', import.meta.url));

/** Runs the kit against the Flask app, in the pinned venv (made on first use: python3 -m venv). */
async function runOnFlask(): Promise<ConformanceReport> {
  const venv = await runProcess('bash', [PYTHON_VENV, FLASK, 'python']);
  if (venv.exitCode !== 0) throw new Error(`no Flask venv:\n${venv.stderr}`);
  const app = await startLogged(venv.stdout.trim(), [join(FLASK, 'app.py')], {
    env: { API_KEY, PATH: process.env.PATH ?? '' },
    // The app stops when its stdin closes: it never outlives this process.
    stdin: 'pipe',
    ready: /listening on (\d+)/,
  });
  try {
    const port = app.match[1] as string;
    return await runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY });
  } finally {
    await app.stop();
  }
}

describe('the kit against an Express app written from the spec', () => {
  it('passes it on Express 5, whose query parser reads names as sent', async () => {
    const report = await runOn(express5);
    expect(report.verdict, notPassed(report).join('\n')).toBe('pass');
  });

  it("fails it on Express 4 for limit[]=1 alone: its query parser (qs) reads ['1'], a limit of 1", async () => {
    const report = await runOn(express4);
    expect(failed(report)).toEqual(['listPets.bracketed-limit']);
    expect(message(report, 'listPets.bracketed-limit')).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
  });
});

describe('the kit against a Fastify app written from the spec', () => {
  it("fails it where Fastify's validation (Ajv, coerceTypes: 'array') coerces, and nowhere else", async () => {
    const app = fastifyPetApp(API_KEY);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    let report: ConformanceReport;
    try {
      report = await runConformance({ baseUrl: `${address}/v1`, apiKey: API_KEY });
    } finally {
      await app.close();
    }
    expect(failed(report).sort()).toEqual([
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'getPet.path-boundaries',
    ]);
    // null becomes "" and 0; ["available"] becomes "available"; "0x1" == +"0x1" is the integer 1.
    expect(message(report, 'createPet.invalid-name')).toMatch(/name null answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId null answered 201/,
    );
    expect(message(report, 'createPet.invalid-status')).toMatch(
      /an array \(\["\w+"\]\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
  });
});

describe('the kit against a Flask app written from the spec', () => {
  it("fails it where Python's defaults break the spec, and nowhere else", async () => {
    const report = await runOnFlask();
    expect(failed(report).sort()).toEqual([
      'createPet.deep-nesting',
      'errors.no-server-errors',
      'getPet.path-boundaries',
    ]);
    // CPython's json.loads raises RecursionError, no ValueError: get_json lets it through.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // Werkzeug's int converter: \d+ matches any script's digits, and int() reads them.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
  }, 600_000);
});
