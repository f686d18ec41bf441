// `proxy --target URL`: between the official client and the API, under the client's scenario, it
// changes no byte of any exchange either way (TCP relays on both sides keep what passed; only
// Host names the target), prints each violation as it passes, writes the report when stopped by
// SIGTERM, and that report is the HAR judge's report of the same traffic.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartedProcess, startLogged } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import { harOf, startTcpTap, type TcpTap, type WireMessage } from './support/tcp-tap.js';
import { clientScenario, scratch, startApi } from './support/traffic.js';

const bin = fileURLToPath(new URL('../bin/animal-store-conformance.js', import.meta.url));
const files = scratch();
const stoppable: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((s) => s.stop()));
});
afterAll(() => files.remove());

interface JsonReport {
  verdict: string;
  results: { id: string; outcome: string }[];
  traffic: { judged: number; exercised: string[]; notExercised: string[] };
}

function tapped(tap: TcpTap): TcpTap {
  stoppable.push({ stop: () => tap.close() });
  return tap;
}

/** Starts the CLI's proxy to `target` and waits for the address it listens on. */
async function startKitProxy(target: string, ...more: string[]): Promise<StartedProcess> {
  const proxy = await startLogged(process.execPath, [bin, 'proxy', '--target', target, ...more], {
    env: { PATH: process.env.PATH ?? '' },
    ready: /point the client at (http:\/\/\S+)/,
  });
  stoppable.push(proxy);
  return proxy;
}

/** The proxy in front of a fake server that ignores limit: the proxy, its base URL, the key. */
async function proxyToListIgnoringLimit() {
  const fake = await startFakeServer({ faults: ['list-ignores-limit'] });
  stoppable.push({ stop: () => fake.close() });
  const proxy = await startKitProxy(fake.baseUrl);
  const auth = { authorization: `Bearer ${fake.apiKey}` };
  return { fake, proxy, base: proxy.match[1] as string, auth };
}

/**
 * Creates two pets through the proxy at `base`, then lists with limit=1, which a fake server with
 * `list-ignores-limit` answers with both: the line the proxy prints for it as the answer passes.
 */
async function listOverLimit(proxy: StartedProcess, base: string, auth: Record<string, string>) {
  for (const name of ['Rex', 'Max']) {
    await fetch(`${base}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
  }
  await (await fetch(`${base}/pets?limit=1`, { headers: auth })).text();
  return proxy.untilStderr((text) => /✗ listPets\.at-most-limit \(§4\.1, §8\): .*/.exec(text)?.[0]);
}

/** The request head with its Host line, the one the proxy sets to the target, set aside. */
const withoutHost = (m: WireMessage) => m.head.replace(/\r\nHost: [^\r]*/i, '\r\nHost: (set)');

describe('the proxy between the official client and the API', () => {
  it('changes no byte either way, and reports what the HAR judge reports of that traffic', async () => {
    const api = await startApi();
    stoppable.push(api);
    const apiSide = tapped(await startTcpTap(new URL(api.base).origin));
    const proxy = await startKitProxy(`${apiSide.origin}/v1`, '--reporter', 'json');
    const clientBase = proxy.match[1] as string;
    expect(clientBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const clientSide = tapped(await startTcpTap(new URL(clientBase).origin));

    const seen = await clientScenario(`${clientSide.origin}/v1`, api.apiKey);
    expect(seen).toEqual({ names: ['Rex', 'Max', 'Ida'], errors: [400, 401, 404] });

    await proxy.stop();
    expect(proxy.exitStatus()).toBe(0);
    const sent = clientSide.exchanges();
    const received = apiSide.exchanges();
    expect(sent.length).toBeGreaterThanOrEqual(10);
    expect(received.length).toBe(sent.length);
    // Keep-alive both ways: connections carried several exchanges each.
    expect(clientSide.connections()).toBeLessThan(sent.length);
    expect(apiSide.connections()).toBeLessThan(received.length);
    for (const [i, atClient] of sent.entries()) {
      const atApi = received[i] as (typeof received)[number];
      // Requests: every header line as the client wrote it (Host aside), the body byte for byte.
      expect(withoutHost(atApi.request)).toBe(withoutHost(atClient.request));
      expect(atApi.request.head).toMatch(
        new RegExp(`\\r\\nHost: ${new URL(apiSide.origin).host}`, 'i'),
      );
      expect(atApi.request.body.equals(atClient.request.body)).toBe(true);
      // Answers: status line and every header line as the API wrote them, the body byte for byte.
      expect(atClient.response.head).toBe(atApi.response.head);
      expect(atClient.response.body.equals(atApi.response.body)).toBe(true);
    }

    const report = JSON.parse(proxy.stdout()) as JsonReport;
    expect(report.verdict).toBe('pass');
    expect(report.traffic.judged).toBe(sent.length);
    expect(proxy.stdout()).not.toContain(api.apiKey);
    expect(proxy.stderr()).not.toContain(api.apiKey);

    const har = join(files.path, 'client-side.har');
    writeFileSync(har, harOf(clientSide.origin, sent));
    const judged = await runCli(['judge', '--har', har, '--reporter', 'json']);
    const fromHar = JSON.parse(judged.stdout) as JsonReport;
    const outcomes = (r: JsonReport) => r.results.map(({ id, outcome }) => `${id}: ${outcome}`);
    expect(outcomes(report)).toEqual(outcomes(fromHar));
    expect(report.traffic.exercised).toEqual(fromHar.traffic.exercised);
    expect(judged.exitCode).toBe(0);
  });

  it('judges on after a getPet whose petId is malformed percent-encoding (%zz)', async () => {
    const { proxy, base, auth } = await proxyToListIgnoringLimit();
    const odd = await fetch(`${base}/pets/%zz`, { headers: auth });
    expect([400, 404]).toContain(odd.status);
    await odd.text();
    expect(await listOverLimit(proxy, base, auth)).toContain(
      'GET /pets?limit=1 answered 200: 2 pets, more than limit 1',
    );
    await proxy.stop();
    expect(proxy.exitStatus()).toBe(1);
    expect(proxy.stdout()).toMatch(/FAIL: 1 must check failed/);
  });

  it('prints each violation as it passes, and fails the report when stopped', async () => {
    const { fake, proxy, base, auth } = await proxyToListIgnoringLimit();
    // Before the proxy stops: the line comes as the answer passes.
    expect(await listOverLimit(proxy, base, auth)).toContain(
      'GET /pets?limit=1 answered 200: 2 pets, more than limit 1',
    );
    await proxy.stop();
    expect(proxy.exitStatus()).toBe(1);
    expect(proxy.stdout()).toMatch(/FAIL: 1 must check failed/);
    expect(proxy.stdout() + proxy.stderr()).not.toContain(fake.apiKey);
  });
});
