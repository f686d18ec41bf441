import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseApiKeys, StaticApiKeys } from '../../src/keys/api-key.js';
import { auth, createPet, errorBody, startTestApi, TEST_KEY } from '../helpers/api.js';

const api = await startTestApi();
const pet = await createPet(api);

const operations = [
  ['listPets', 'GET', '/pets'],
  ['createPet', 'POST', '/pets'],
  ['getPet', 'GET', `/pets/${pet.id}`],
] as const;

const badCredentials: [string, Record<string, string>][] = [
  ['no Authorization header', {}],
  ['an empty bearer token', { Authorization: 'Bearer ' }],
  ['a bare scheme', { Authorization: 'Bearer' }],
  [
    'the Basic scheme',
    { Authorization: `Basic ${Buffer.from(`u:${TEST_KEY}`).toString('base64')}` },
  ],
  ['the key without a scheme', { Authorization: TEST_KEY }],
  ['an unknown key', { Authorization: 'Bearer not-the-key' }],
  ['the key with a suffix', { Authorization: `Bearer ${TEST_KEY}x` }],
];

describe.each(operations)('%s', (_, method, path) => {
  it.each(badCredentials)('answers 401 with a challenge for %s', async (_, headers) => {
    const body = method === 'POST' ? JSON.stringify({ name: 'Rex', categoryId: 1 }) : undefined;
    const res = await fetch(`${api.base}${path}`, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="animal-store"');
    expect((await errorBody(res)).code).toBe('unauthorized');
  });
});

describe('authentication', () => {
  it('accepts the scheme name in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await fetch(`${api.base}/pets`, {
        headers: { Authorization: `${scheme} ${TEST_KEY}` },
      });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('answers 401 before looking at a bad body', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{not json',
    });
    expect(res.status).toBe(401);
  });

  it('answers 401 before validating a bad query', async () => {
    const res = await fetch(`${api.base}/pets?limit=0`);
    expect(res.status).toBe(401);
  });

  it('accepts a key configured only as its sha256 digest', async () => {
    const digest = createHash('sha256').update('digest-only-key').digest('hex');
    const verifier = new StaticApiKeys(parseApiKeys(`sha256:${digest}`));
    const other = await startTestApi({ apiKeys: verifier });
    const ok = await fetch(`${other.base}/pets`, {
      headers: { Authorization: 'Bearer digest-only-key' },
    });
    expect(ok.status).toBe(200);
    const plain = await fetch(`${other.base}/pets`, {
      headers: { Authorization: `Bearer sha256:${digest}` },
    });
    expect(plain.status).toBe(401);
  });

  it('accepts a configured digest written in upper-case hex', async () => {
    const digest = createHash('sha256').update('upper-digest-key').digest('hex').toUpperCase();
    const other = await startTestApi({
      apiKeys: new StaticApiKeys(parseApiKeys(`SHA256:${digest}`)),
    });
    const ok = await fetch(`${other.base}/pets`, {
      headers: { Authorization: 'Bearer upper-digest-key' },
    });
    expect(ok.status).toBe(200);
  });

  it('never logs the key or the Authorization header', async () => {
    await fetch(`${api.base}/pets`, { headers: auth });
    await fetch(`${api.base}/pets`, { headers: { Authorization: 'Bearer wrong-secret-value' } });
    const text = JSON.stringify(api.logs);
    expect(api.logs.length).toBeGreaterThan(0);
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain('wrong-secret-value');
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('logs the key name with each authenticated request', async () => {
    await fetch(`${api.base}/pets`, { headers: auth });
    const last = api.logs.filter((l) => l.msg === 'request').at(-1);
    expect(last).toMatchObject({
      status: 200,
      route: '/v1/pets',
      key: expect.stringMatching(/^env:[0-9a-f]{8}$/),
    });
  });
});

describe('parseApiKeys', () => {
  it('rejects a malformed digest entry', () => {
    expect(() => parseApiKeys('good,sha256:xyz')).toThrow(/entry 2/);
  });

  it('skips empty entries', () => {
    expect(parseApiKeys(' a , ,b,')).toHaveLength(2);
  });
});
