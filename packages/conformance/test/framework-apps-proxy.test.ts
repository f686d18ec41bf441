// The kit through its proxy, in front of each framework app of framework-apps.test.ts: the kit
// fails the same checks as it does run straight at the app (and the proxy's 502 where the app
// closes a connection without an answer; less what a POST shows only after another request on
// its connection, as the proxy sends each POST on its own), and the traffic judge, holding the
// kit's traffic as anyone's, fails what it can see of them and nothing else. An app that leaves a
// body unread on a connection it keeps open fails otherwise through the proxy, which sends other
// requests on that connection: which ones varies, and the run fails, the judge nothing the run
// passes.

import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConformanceReport, runConformance, startProxy, TrafficJudge } from '../src/index.js';
import { API_KEY, type FrameworkApp, frameworkApps } from './support/framework-apps.js';
import { failed, notPassed } from './support/run-kit.js';

const built = new TemporaryFolder('conformance-framework-apps-proxy-');
afterAll(() => built.remove());
const APPS = frameworkApps(built);

describe('the kit through the proxy, in front of each app', () => {
  it.each(
    Object.keys(APPS),
  )('fails the same checks on %s, and the traffic judge fails what it can see of them', async (name) => {
    const {
      start,
      fails,
      inTraffic,
      throughProxy = [],
      passesThroughProxy = [],
      variesThroughProxy,
    } = APPS[name] as FrameworkApp;
    const app = await start();
    try {
      const judge = new TrafficJudge({ base: app.baseUrl, source: name });
      const proxy = await startProxy({ target: app.baseUrl, onExchange: (e) => void judge.add(e) });
      let report: ConformanceReport;
      try {
        report = await runConformance({ baseUrl: `${proxy.origin}/v1`, apiKey: API_KEY });
      } finally {
        await proxy.close();
      }
      const expected = [
        ...fails.filter((id) => !passesThroughProxy.includes(id)),
        ...throughProxy,
      ].sort();
      const traffic = await judge.report();
      if (variesThroughProxy === undefined) {
        expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(expected);
        expect(failed(traffic).sort(), notPassed(traffic).join('\n')).toEqual(inTraffic);
      } else {
        // Which requests meet what the app left unread varies, and what they get in its place
        // may fail a check or pass a case of it: the run fails, and the judge fails nothing the
        // run passes. The straight run holds what the app fails.
        expect(report.verdict, notPassed(report).join('\n')).toBe('fail');
        const runFailed = failed(report);
        expect(failed(traffic).filter((id) => !runFailed.includes(id))).toEqual([]);
      }
      // What the judge fails, the run fails too: no false alarm from either.
      expect(inTraffic.filter((id) => !fails.includes(id))).toEqual([]);
    } finally {
      await app.stop();
    }
  }, 600_000);
});
