import { describe, expect, it } from 'vitest';
import { type ApiKeyVerifier, parseApiKeys, StaticApiKeys } from '../src/keys/api-key.js';
import { ChainedApiKeys } from '../src/keys/chained-api-keys.js';
import { auth, errorBody, startTestApi, TEST_KEY } from './helpers/api.js';

/** A verifier that answers like a database: later, through a promise; counts what it is asked. */
function waitingVerifier(keys: Record<string, string>, failure?: Error) {
  const asked: string[] = [];
  const verifier: ApiKeyVerifier = {
    async verify(token) {
      asked.push(token);
      await new Promise((resolve) => setImmediate(resolve));
      if (failure) throw failure;
      const name = keys[token];
      return name === undefined ? undefined : { id: `id-${name}`, name };
    },
  };
  return { verifier, asked };
}

describe('StaticApiKeys', () => {
  it('knows each configured key by a name of its own', async () => {
    const keys = new StaticApiKeys(parseApiKeys('key-one,key-two'));
    const [one, two] = [await keys.verify('key-one'), await keys.verify('key-two')];
    expect(two?.name).toMatch(/^env:[0-9a-f]{8}$/);
    expect(one?.name).not.toBe(two?.name);
  });

  it('gives each key the whole digest as its identity, the name being a prefix of it', async () => {
    const [digest] = parseApiKeys('key-one');
    const identity = await new StaticApiKeys([digest as string]).verify('key-one');
    expect(identity).toEqual({ id: digest, name: `env:${digest?.slice(0, 8)}` });
  });

  it('does not know a key that differs by one character', async () => {
    expect(await new StaticApiKeys(parseApiKeys('key-one')).verify('key-onE')).toBeUndefined();
  });
});

describe('ChainedApiKeys', () => {
  it('answers from the first verifier that knows the key, asking no other', async () => {
    const later = waitingVerifier({ 'db-key': 'db' });
    const chain = new ChainedApiKeys([new StaticApiKeys(parseApiKeys('env-key')), later.verifier]);
    expect(await chain.verify('env-key')).toMatchObject({ name: expect.stringMatching(/^env:/) });
    expect(later.asked).toEqual([]);
  });

  it('waits for a later verifier when the first does not know the key', async () => {
    const later = waitingVerifier({ 'db-key': 'db' });
    const chain = new ChainedApiKeys([new StaticApiKeys(parseApiKeys('env-key')), later.verifier]);
    expect(await chain.verify('db-key')).toEqual({ id: 'id-db', name: 'db' });
    expect(await chain.verify('nobody')).toBeUndefined();
    expect(later.asked).toEqual(['db-key', 'nobody']);
  });

  it('goes on after a verifier that waited and did not know the key', async () => {
    const first = waitingVerifier({});
    const second = waitingVerifier({ 'db-key': 'second' });
    const chain = new ChainedApiKeys([first.verifier, second.verifier]);
    expect(await chain.verify('db-key')).toEqual({ id: 'id-second', name: 'second' });
    expect([first.asked, second.asked]).toEqual([['db-key'], ['db-key']]);
  });

  it('propagates a failure and asks no verifier after it', async () => {
    const failing = waitingVerifier({}, new Error('database down'));
    const after = waitingVerifier({ 'db-key': 'db' });
    const chain = new ChainedApiKeys([failing.verifier, after.verifier]);
    await expect(chain.verify('db-key')).rejects.toThrow('database down');
    expect(after.asked).toEqual([]);
  });
});

const api = await startTestApi({ apiKeys: waitingVerifier({ [TEST_KEY]: 'waiting' }).verifier });

describe('requireApiKey with a verifier that answers through a promise', () => {
  it('serves the request once the verifier knows the key, and logs its name', async () => {
    const res = await fetch(`${api.base}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    const line = api.logs.find((l) => l.msg === 'request' && l.status === 200);
    expect(line?.key).toBe('waiting');
  });

  it('answers 401 with an Error body when the verifier does not know the key', async () => {
    const res = await fetch(`${api.base}/pets`, { headers: { Authorization: 'Bearer other' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await errorBody(res)).toMatchObject({ code: 'unauthorized', status: 401 });
  });
});
