// createPet.category-id-beyond-int64-exact holds a server to int64 only where it shows it reads
// the text of a number beyond int64: never a server that reads numbers as doubles, whatever
// else makes it refuse a create, nor one that closes the connection on such a number.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { resultOf, TEST_TIMEOUT_MS } from './support/run-kit.js';

const KEY = 'int64-bounds-test-key';
const CHECK = 'createPet.category-id-beyond-int64-exact';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Options {
  /** Creates it takes before it answers 422 to every other (a full store, a quota). */
  readonly capacity?: number;
  /** A categoryId text whose create it answers by closing the connection. */
  readonly closesOn?: string;
  /** Keeps the categoryId's text and shows it in getPet (the 201 shows the double). */
  readonly showsTextOnRead?: boolean;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

/**
 * A server written from the spec in JavaScript: JSON.parse reads numbers as doubles, and the
 * bound is the loose one a double allows (|categoryId| <= 2^63).
 */
async function doubleServer(options: Options): Promise<string> {
  const pets: { id: number; name: string; categoryId: number; text: string; status: string }[] = [];
  const shown = (pet: (typeof pets)[number]) =>
    `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${options.showsTextOnRead ? pet.text : JSON.stringify(pet.categoryId)},"status":"${pet.status}"}`;
  const server = createServer(async (req, res) => {
    const answer = (status: number, text: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    const error = (status: number, message: string) =>
      answer(status, JSON.stringify({ code: 'refused', message, status }));
    const sent = await body(req);
    if (req.headers.authorization !== `Bearer ${KEY}`) return error(401, 'send the key');
    const url = new URL(req.url ?? '/', 'http://x');
    const item = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/v1/pets') {
      return answer(200, `[${pets.slice(0, 20).map(shown).join(',')}]`);
    }
    if (req.method === 'GET' && item) {
      const pet = pets.find((p) => p.id === Number(item[1]));
      return pet === undefined ? error(404, 'no such pet') : answer(200, shown(pet));
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/pets') return error(404, 'no route');
    const text = /"categoryId"\s*:\s*(-?[\d.]+)/.exec(sent)?.[1] ?? '';
    if (text === options.closesOn) return req.socket.destroy();
    let pet: { name?: unknown; categoryId?: unknown; status?: unknown };
    try {
      pet = JSON.parse(sent);
    } catch {
      return error(400, 'not JSON');
    }
    const { name, categoryId, status = 'available' } = pet;
    if (typeof name !== 'string' || typeof categoryId !== 'number') return error(400, 'invalid');
    if (!Number.isInteger(categoryId) || Math.abs(categoryId) > 2 ** 63) {
      return error(400, 'categoryId is an int64');
    }
    if (!['available', 'pending', 'sold'].includes(String(status))) return error(400, 'status');
    if (pets.length >= (options.capacity ?? Number.POSITIVE_INFINITY)) {
      return error(422, 'the store is full');
    }
    const created = { id: pets.length + 1, name, categoryId, text, status: String(status) };
    pets.push(created);
    return answer(201, JSON.stringify({ ...created, text: undefined }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function judged(options: Options, seed: number) {
  const report = await runConformance({
    baseUrl: await doubleServer(options),
    apiKey: KEY,
    timeoutMs: TEST_TIMEOUT_MS,
    seed,
    only: ['createPet.invalid-category-id-literal', CHECK],
  });
  return resultOf(report, CHECK);
}

describe('the int64 must, against a server that reads numbers as doubles', () => {
  it('passes it, however soon its store fills between two creates', async () => {
    for (const capacity of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { outcome, message } = await judged({ capacity }, 1);
      expect(outcome, `capacity ${capacity}: ${message}`).toBe('pass');
    }
  });

  it('passes it when it closes the connection on a number beyond int64', async () => {
    const { outcome, message } = await judged({ closesOn: '-9223372036854775809' }, 1);
    expect(outcome, message).toBe('pass');
    expect(message).toContain('-9223372036854775809: no answer');
  });

  it('fails it when getPet shows the text of a number beyond int64 that the 201 showed as a double', async () => {
    const { outcome, message } = await judged({ showsTextOnRead: true }, 1);
    expect(outcome).toBe('fail');
    expect(message).toMatch(
      /^GET \/pets\/\d+, a pet created with categoryId .*, shows categoryId -?[\d.]+ digit for digit, which no double holds: .* \(and 2 more\)/,
    );
  });
});
