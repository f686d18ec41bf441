import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runKeysCliProcess, startApiProcess } from '../helpers/processes.js';

const databases: string[] = [];
afterAll(async () => {
  const client = new MongoClient(inject('mongoUri'));
  for (const name of databases) await client.db(name).dropDatabase();
  await client.close();
});

/** The environment of a CLI or API process on a database of its own (dropped after the file). */
function mongoEnv() {
  databases.push(uniqueDbName());
  return { MONGODB_URI: inject('mongoUri'), MONGODB_DB: databases.at(-1) ?? '' };
}

describe('keys CLI against MongoDB, with a running API', () => {
  it('creates a key that works at once and stops working within seconds of its revocation', async () => {
    const env = mongoEnv();
    const created = await runKeysCliProcess(['create', 'e2e-client'], env);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^as_[A-Za-z0-9_-]{43}\n$/);
    expect(created.stderr).toMatch(/shown only this once/);
    const key = created.stdout.trim();

    // No API_KEYS: the collection holds a key, so the service generates none.
    const api = await startApiProcess({ ...env, API_KEY_CACHE_MS: '200' });
    expect(api.output()).not.toContain('generated a key');
    const get = () => fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await get()).status).toBe(200);

    const revoked = await runKeysCliProcess(['revoke', 'e2e-client'], env);
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    // Refused once the 200 ms identity cache lapses; the test's timeout catches a key never refused.
    while ((await get()).status === 200) await new Promise((r) => setTimeout(r, 50));
    expect((await get()).status).toBe(401);

    const listed = await runKeysCliProcess(['list'], env);
    expect(listed.exitCode).toBe(0);
    const [header, row, ...rest] = listed.stdout.trimEnd().split('\n');
    expect(header?.split(/ +/)).toEqual(['NAME', 'CREATED', 'REVOKED', 'FINGERPRINT']);
    expect(row?.split(/ +/)).toEqual([
      'e2e-client',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^[0-9a-f]{8}$/),
    ]);
    expect(rest).toEqual([]);

    // The key's name is what the logs show; the key itself never appears.
    expect(api.output()).toContain('"key":"e2e-client"');
    expect(api.output()).not.toContain(key);
  });

  it('revokes idempotently, and answers 1 for an unknown name or a name in use', async () => {
    const env = mongoEnv();
    expect((await runKeysCliProcess(['create', 'dup'], env)).exitCode).toBe(0);
    const again = await runKeysCliProcess(['create', 'dup'], env);
    expect(again).toMatchObject({ exitCode: 1, stdout: '' });
    expect(again.stderr).toMatch(/a key named "dup" exists/);
    expect((await runKeysCliProcess(['revoke', 'dup'], env)).exitCode).toBe(0);
    expect((await runKeysCliProcess(['revoke', 'dup'], env)).exitCode).toBe(0);
    const unknown = await runKeysCliProcess(['revoke', 'nobody'], env);
    expect(unknown).toMatchObject({ exitCode: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/no key named "nobody"/);
  });

  it('starts the API with a generated key when the collection is empty', async () => {
    const api = await startApiProcess(mongoEnv());
    const key = /generated a key for this run only:\s+(\S+)/.exec(api.output())?.[1];
    expect(key).toBeDefined();
    const res = await fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});
