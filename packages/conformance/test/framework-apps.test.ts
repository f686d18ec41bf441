// The kit against a real web framework rather than a fake of one: the same Express app, written
// from the spec with Express's defaults, on Express 4 and on Express 5. What the kit fails on one
// and not the other is Express's doing; no false alarm may come from either.
import type { AddressInfo } from 'node:net';
import express4 from 'express4';
import express5 from 'express5';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { expressPetApp } from './support/express-pet-app.js';
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

const failed = (report: Awaited<ReturnType<typeof runOn>>) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

describe('the kit against an Express app written from the spec', () => {
  it('passes it on Express 5, whose query parser reads names as sent', async () => {
    const report = await runOn(express5);
    expect(report.verdict, notPassed(report).join('\n')).toBe('pass');
  });

  it("fails it on Express 4 for limit[]=1 alone: its query parser (qs) reads ['1'], a limit of 1", async () => {
    const report = await runOn(express4);
    expect(failed(report)).toEqual(['listPets.bracketed-limit']);
    expect(report.results.find((r) => r.id === 'listPets.bracketed-limit')?.message).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
  });
});
