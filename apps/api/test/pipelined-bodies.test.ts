import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses } from './helpers/raw-http.js';

const api = await startTestApi();

const head = (line: string, extra = '') =>
  `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n${extra}`;
const create = (name: string, extra = '') => {
  const body = JSON.stringify({ name, categoryId: 1 });
  return `${head('POST /v1/pets', `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}`)}\r\n${body}`;
};

describe('connections that send request bodies', () => {
  it('keep serving every request, pipelined or split, after a body', async () => {
    const second = create('Split');
    const { data } = await exchange(
      api.origin,
      [
        `${create('First')}${head('GET /v1/pets?limit=1')}\r\n`,
        second.slice(0, second.length - 10),
        `${second.slice(second.length - 10)}${head('GET /v1/pets/1', 'Connection: close\r\n')}\r\n`,
      ],
      { gapMs: 50, waitMs: 30_000 },
    );
    const answers = parseResponses(data);
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 201, 200]);
    expect(JSON.parse(answers[2]?.body ?? '')).toMatchObject({ name: 'Split' });
    expect(JSON.parse(answers[3]?.body ?? '')).toMatchObject({ id: 1, name: 'First' });
  });

  it('have every head after a body bounded by the header limit', async () => {
    const { hostname, port } = new URL(api.origin);
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const answered = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (Buffer.concat(received).toString('latin1').includes(text)) resolve();
        };
        socket.on('data', (chunk: Buffer) => {
          received.push(chunk);
          check();
        });
      });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    const created = answered('"name":"Bounded"');
    socket.write(create('Bounded'));
    await created;
    socket.write(`${head('GET /v1/pets', `X-Padding: ${'a'.repeat(70_000)}\r\n`)}\r\n`);
    await closed;
    const statuses = parseResponses(Buffer.concat(received)).map((answer) => answer.status);
    expect(statuses).toEqual([201, 431]);
  });
});
