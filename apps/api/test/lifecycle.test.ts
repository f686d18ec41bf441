import { once } from 'node:events';
import { API_MAIN, runProcess } from '@animal-store/test-support';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import type { PetDraft } from '../src/store/pet-store.js';
import { json, startTestApi } from './helpers/api.js';
import { startApiProcess } from './helpers/processes.js';

// Each test starts its own process: they run side by side.
describe.concurrent('the service process', () => {
  it('generates a key when none is configured, prints it once, and never logs it', async () => {
    const { child, base: url, stdout: out, stderr: err } = await startApiProcess({});
    const key = /Bearer (as_[A-Za-z0-9_-]+)/.exec(err())?.[1];
    expect(key).toBeDefined();
    expect(
      (await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer other' } })).status,
    ).toBe(401);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const stdout = out();
    const stderr = err();
    expect(stdout).not.toContain(key);
    expect(stderr.split(key as string)).toHaveLength(3); // the key and the example header, once
    expect(stdout).toContain('in-memory store');
  });

  it('on SIGTERM, answers /readyz 503 draining and keeps serving for DRAIN_DELAY_MS', async () => {
    // A drain delay longer than the test's timeout: only a second signal ends it.
    const api = await startApiProcess({ API_KEYS: 'k1', DRAIN_DELAY_MS: '600000' });
    const origin = new URL(api.base).origin;
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    // The same signal again at once is a runner's copy of it (pnpm passes on what the process
    // group got): the drain goes on.
    api.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    // The line is logged once the process drains, however long this machine takes to get there.
    await api.untilStdout(
      (text) => text.includes('draining: /readyz answers 503, still serving') || undefined,
    );
    const probe = await fetch(`${origin}/readyz`);
    expect(probe.status).toBe(503);
    expect(await probe.json()).toEqual({ status: 'draining', database: 'up' });
    const listed = await fetch(`${api.base}/pets`, { headers: { Authorization: 'Bearer k1' } });
    expect(listed.status).toBe(200);
    expect(api.stdout()).toContain('draining: /readyz answers 503, still serving');
    expect(api.stdout()).not.toContain('shutting down');
    // A person's second signal (Ctrl-C) ends the drain.
    api.child.kill('SIGINT');
    const [code] = await once(api.child, 'exit');
    expect(code).toBe(0);
    expect(api.stdout()).toContain('"msg":"stopped"');
  });

  it('on SIGINT (Ctrl-C), stops at once whatever the drain delay', async () => {
    const api = await startApiProcess({ API_KEYS: 'k1', DRAIN_DELAY_MS: '600000' });
    api.child.kill('SIGINT');
    const [code] = await once(api.child, 'exit');
    expect(code).toBe(0);
    expect(api.stdout()).not.toContain('draining: /readyz answers 503');
  });

  it('refuses a bad configuration with one clear line and exit 1', async () => {
    const { exitCode, stderr } = await runProcess(process.execPath, [API_MAIN], {
      env: { PORT: 'eighty' },
    });
    expect(exitCode).toBe(1);
    expect(stderr.trim()).toBe(
      'animal-store-api: configuration error: PORT must be an integer from 0 to 65535 (got "eighty")',
    );
  });

  it('applies the limits set in the environment', async () => {
    const { base: url } = await startApiProcess({
      API_KEYS: 'k1',
      MAX_URL_BYTES: '1024',
      MAX_HEADER_BYTES: '2048',
      RATE_LIMIT_REQUESTS: '2',
      // A day-long window: no window ends between the requests.
      RATE_LIMIT_WINDOW_SECONDS: '86400',
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    const headers = { Authorization: 'Bearer k1' };
    const origin = new URL(url).origin;
    const big = { ...headers, 'X-Big': 'b'.repeat(2048) };
    const statuses = [
      // Refused before authentication: neither counts against the key.
      (await fetch(`${url}/pets?x=${'a'.repeat(1100)}`, { headers })).status,
      (await fetch(`${url}/pets`, { headers: big })).status,
    ];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/pets`, { headers })).status);
    statuses.push((await fetch(`${origin}/metrics`)).status);
    const scraper = { Authorization: 'Bearer metrics-token-0123456789' };
    statuses.push((await fetch(`${origin}/metrics`, { headers: scraper })).status);
    expect(statuses).toEqual([414, 431, 200, 200, 429, 401, 200]);
  });

  it('stops on SIGINT with exit 0', async () => {
    const { child, stdout } = await startApiProcess({ API_KEYS: 'k1,k2' });
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout()).toContain('"msg":"stopped"');
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish and refuses new connections', async () => {
    const store = new MemoryPetStore();
    const create = store.create.bind(store);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    store.create = async (draft: PetDraft) => {
      entered();
      await new Promise((r) => setTimeout(r, 300));
      return create(draft);
    };
    const api = await startTestApi({ store });
    const inFlight = fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Slow","categoryId":1}',
    });
    await inside;
    const closing = api.close();
    const res = await inFlight;
    expect(res.status).toBe(201);
    await closing;
    await expect(fetch(`${api.base}/pets`)).rejects.toThrow();
  });
});
