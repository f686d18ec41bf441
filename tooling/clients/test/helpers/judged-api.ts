import { type ConformanceReport, startProxy, TrafficJudge } from '@animal-store/conformance';
import { afterAll, expect } from 'vitest';
import type { SharedApi } from './api-process.js';

/** An API behind the conformance kit's proxy: clients call `base`, the kit's judge holds it all. */
export interface JudgedApi extends SharedApi {
  /** The judge's report on every exchange through the proxy so far (`should` rules count). */
  report(): Promise<ConformanceReport>;
}

/**
 * Puts the conformance kit's `proxy` in front of `api`, for one file: the clients' traffic, which
 * the kit never wrote, goes through it to the API unchanged, and the kit's traffic judge holds
 * every exchange to the spec's rules, as an implementer's CI does with its own clients. Call it
 * while the file's suites are collected: the proxy closes after the file's tests.
 */
export function judgedApi(api: SharedApi | Promise<SharedApi>, source: string): Promise<JudgedApi> {
  const starting = (async () => {
    const { base, apiKey } = await api;
    const judge = new TrafficJudge({ base, source, strict: true });
    const proxy = await startProxy({ target: base, onExchange: (e) => void judge.add(e) });
    const path = new URL(base).pathname;
    return {
      proxy,
      judged: { base: `${proxy.origin}${path}`, apiKey, report: () => judge.report() },
    };
  })();
  afterAll(async () => {
    const started = await starting.catch(() => undefined);
    await started?.proxy.close();
  });
  return starting.then(({ judged }) => judged);
}

/**
 * Fails unless the judge found nothing wrong with the traffic it `judged`, and exercised at least
 * the rules named `exercised` on it (a proxy that saw nothing passes every rule by judging none).
 */
export async function expectNothingWrong(
  judged: ConformanceReport | Promise<ConformanceReport>,
  exercised: readonly string[],
): Promise<void> {
  const { results } = await judged;
  const wrong = results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.message}`);
  expect(wrong).toEqual([]);
  const passed = results.filter((r) => r.outcome === 'pass').map((r) => r.id);
  expect(passed).toEqual(expect.arrayContaining([...exercised]));
}
