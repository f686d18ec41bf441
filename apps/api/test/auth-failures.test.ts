import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { presentedApiKey, requireApiKey } from '../src/http/auth.js';
import { UnauthorizedError } from '../src/http/errors.js';
import { auth, startTestApi } from './helpers/api.js';
import { sample, scrape } from './helpers/scrape.js';

const api = await startTestApi({ rateLimit: { requests: 100, windowSeconds: 3600 } });

describe('failed authentication', () => {
  it('is not throttled: a flood of unknown keys from one address refuses no valid key', async () => {
    const statuses = new Set<number>();
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer guess-${batch}-${i}` } }),
        ),
      );
      for (const res of answers) {
        statuses.add(res.status);
        // A request without a valid key spends no quota and is told of none.
        expect(res.headers.get('ratelimit')).toBeNull();
        await res.body?.cancel();
      }
    }
    expect([...statuses]).toEqual([401]);
    const valid = await fetch(`${api.base}/pets`, { headers: auth });
    expect(valid.status).toBe(200);
    expect(valid.headers.get('ratelimit')).toMatch(/r=99;/);
  });
});

describe('the reason a request is refused as unauthenticated', () => {
  const request = (...fields: string[]) =>
    ({
      headers: { authorization: fields[0]?.split(': ')[1] },
      rawHeaders: fields.flatMap((field) => field.split(': ')),
    }) as unknown as IncomingMessage;
  const reason = (req: IncomingMessage) => {
    try {
      presentedApiKey(req);
    } catch (error) {
      return (error as UnauthorizedError).reason;
    }
  };

  it('is missing or malformed as the request says', () => {
    expect(reason({ headers: {}, rawHeaders: [] } as unknown as IncomingMessage)).toBe('missing');
    expect(reason(request('Authorization: '))).toBe('missing');
    expect(reason(request('Authorization: Basic dXNlcjpwdw=='))).toBe('malformed');
  });

  it('answers a revoked key exactly as an unknown one, counting each by its reason', async () => {
    const revoking = await startTestApi({
      apiKeys: { verify: async (token) => (token === 'old' ? 'revoked' : undefined) },
    });
    const get = (key: string) =>
      fetch(`${revoking.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    const [revoked, unknown] = [await get('old'), await get('never')];
    expect([revoked.status, unknown.status]).toEqual([401, 401]);
    expect(await revoked.json()).toEqual(await unknown.json());
    const metrics = await scrape(revoking.origin);
    expect(sample(metrics, 'auth_failures_total', { reason: 'revoked' })).toBe(1);
    expect(sample(metrics, 'auth_failures_total', { reason: 'unknown' })).toBe(1);
  });
});

describe('the API key check without a listener for refusals', () => {
  it('refuses a request without a key with its 401 all the same', async () => {
    const check = requireApiKey({ verify: async () => undefined });
    const set: Record<string, string> = {};
    const ctx = {
      state: {},
      set: (name: string, value: string) => {
        set[name] = value;
      },
      req: { headers: {}, rawHeaders: [] },
    } as unknown as Parameters<typeof check>[0];
    // The check may refuse at once (a throw) or later (a rejection): either is its refusal.
    const refusal = await (async () => check(ctx, async () => {}))().catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UnauthorizedError);
    expect((refusal as UnauthorizedError).reason).toBe('missing');
    expect(set['Cache-Control']).toBe('no-store');
  });

  it('refuses an unknown key with its 401 all the same', async () => {
    const check = requireApiKey({ verify: () => undefined });
    const ctx = {
      state: {},
      set: () => {},
      req: {
        headers: { authorization: 'Bearer nope' },
        rawHeaders: ['Authorization', 'Bearer nope'],
      },
    } as unknown as Parameters<typeof check>[0];
    const refusal = await (async () => check(ctx, async () => {}))().catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UnauthorizedError);
    expect((refusal as UnauthorizedError).reason).toBe('unknown');
  });
});
