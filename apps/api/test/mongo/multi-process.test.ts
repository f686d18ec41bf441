import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { uniqueDbName } from '@animal-store/test-db';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type PetBody, read } from '../helpers/api.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const KEY = 'multi-process-key';
const children: ChildProcess[] = [];
const outputs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** Starts one API process (the built service) on a free port against the shared database. */
async function startApiProcess(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', API_KEYS: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const index = outputs.push('') - 1;
  const collect = (chunk: Buffer) => {
    outputs[index] = `${outputs[index] ?? ''}${chunk}`;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /"url":"([^"]+)","msg":"listening"/.exec(outputs[index] ?? '')?.[1];
    if (url) return url;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`API did not start: ${outputs[index]}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two API processes on one database', () => {
  it('take hundreds of concurrent creates: ids unique, every pet listed, nothing lost', async () => {
    const env = { MONGODB_URI: inject('mongoUri'), MONGODB_DB: uniqueDbName(), LOG_LEVEL: 'info' };
    const bases = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const created = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const res = await fetch(`${bases[i % 2]}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `mp-${i}`, categoryId: i + 1 }),
        });
        const errors = () =>
          outputs
            .join('')
            .split('\n')
            .filter((l) => l.includes('"level":50'));
        expect(res.status, `${await res.clone().text()} ${errors().join('\n')}`).toBe(201);
        return read(res);
      }),
    );
    expect(new Set(created.map((p) => p.id)).size).toBe(400);

    // Read back through the other process than the one that created each pet.
    const listed: PetBody[] = [];
    let query = 'limit=100';
    for (;;) {
      const page = await read<PetBody[]>(fetch(`${bases[1]}/pets?${query}`, { headers }));
      if (page.length === 0) break;
      listed.push(...page);
      query = `limit=100&after=${page.at(-1)?.id}`;
    }
    const byId = (a: PetBody, b: PetBody) => a.id - b.id;
    expect(listed.sort(byId)).toEqual([...created].sort(byId));
  });
});
