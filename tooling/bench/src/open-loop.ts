import { connect, type Socket } from 'node:net';
import type { BenchRequest } from './scenario.js';
import { Samples } from './stats.js';

/**
 * Open-loop load at a fixed rate (the wrk2 way): request i is due at `start + i / rate`, whether
 * or not earlier ones have been answered, and its latency is counted from when it was due, so a
 * stalled server cannot hide its stall (no coordinated omission). One request in flight per
 * connection, no pipelining. autocannon's own rate limit is not used for this: it lets each
 * connection send its per-second quota back to back at the start of every second, which
 * measures bursts, not a steady rate.
 */
export interface FixedRateOptions {
  rate: number;
  durationS: number;
  /**
   * Sends this many requests instead of `rate * durationS`, and waits for every answer however
   * long it takes (smoke runs: no deadline that a busy machine could miss).
   */
  amount?: number;
  connections: number;
  expectStatus: number;
}

export interface FixedRateResult {
  latencies: Samples;
  /** Requests answered per second, as achieved. */
  rps: number;
  seconds: number;
}

function requestBuffer(origin: URL, request: BenchRequest): Buffer {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${origin.host}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  const body = request.body ?? '';
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *([0-9]+)/i;

/** One keep-alive connection with a minimal parser for the responses our servers send. */
class Connection {
  readonly socket: Socket;
  /** When the request in flight was due; undefined when idle. */
  due: number | undefined;
  #pending: Buffer | undefined;
  #bodyLeft = -1;
  #status = 0;

  constructor(
    origin: URL,
    readonly onResponse: (conn: Connection, status: number) => void,
    readonly onFailure: (conn: Connection, error: Error) => void,
  ) {
    this.socket = connect(Number(origin.port), origin.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.#read(chunk));
    this.socket.on('error', (error) => this.onFailure(this, error));
    this.socket.on('close', () => this.onFailure(this, new Error('connection closed')));
  }

  send(request: Buffer, due: number): void {
    this.due = due;
    this.socket.write(request);
  }

  #read(chunk: Buffer): void {
    let data = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    for (;;) {
      if (this.#bodyLeft < 0) {
        const end = data.indexOf(HEAD_END);
        if (end === -1) break;
        const head = data.toString('latin1', 0, end);
        const length = CONTENT_LENGTH.exec(head);
        if (!length) {
          this.onFailure(this, new Error(`response without Content-Length: ${head.slice(0, 80)}`));
          return;
        }
        this.#status = Number(head.slice(9, 12));
        this.#bodyLeft = Number(length[1]);
        data = data.subarray(end + HEAD_END.length);
      }
      if (data.length < this.#bodyLeft) break;
      data = data.subarray(this.#bodyLeft);
      this.#bodyLeft = -1;
      this.onResponse(this, this.#status);
    }
    this.#pending = data.length > 0 ? data : undefined;
  }
}

/** Sends `rate` requests a second for `durationS` seconds, cycling through `requests`. */
export async function fixedRate(
  originText: string,
  requests: readonly BenchRequest[],
  options: FixedRateOptions,
): Promise<FixedRateResult> {
  const origin = new URL(originText);
  const buffers = requests.map((request) => requestBuffer(origin, request));
  const total = options.amount ?? Math.max(1, Math.round(options.rate * options.durationS));
  const interval = 1000 / options.rate;
  const latencies = new Samples();
  const idle: Connection[] = [];
  const all: Connection[] = [];
  let issued = 0;
  let dispatched = 0;
  let answered = 0;
  let start = 0;
  let finished = false;

  return new Promise<FixedRateResult>((resolve, reject) => {
    const fail = (error: Error) => {
      if (finished) return;
      finished = true;
      for (const conn of all) conn.socket.destroy();
      reject(error);
    };
    // A server that cannot keep up still has to answer everything: that is the finding. A
    // counted run has no deadline; its caller bounds it.
    const guard =
      options.amount === undefined
        ? setTimeout(
            () =>
              fail(new Error(`fixed-rate run did not finish: ${answered} of ${total} answered`)),
            (options.durationS * 4 + 60) * 1000,
          )
        : undefined;

    const dispatch = () => {
      // FIFO over idle connections keeps every one of them warm (servers drop idle sockets).
      while (dispatched < issued && idle.length > 0) {
        const conn = idle.shift() as Connection;
        conn.send(buffers[dispatched % buffers.length] as Buffer, start + dispatched * interval);
        dispatched++;
      }
    };
    const pump = () => {
      if (finished) return;
      const now = performance.now();
      while (issued < total && start + issued * interval <= now) issued++;
      dispatch();
      if (issued < total) setTimeout(pump, 1);
    };
    const onResponse = (conn: Connection, status: number) => {
      const now = performance.now();
      if (status !== options.expectStatus) {
        fail(new Error(`unexpected status ${status} (expected ${options.expectStatus})`));
        return;
      }
      latencies.add(now - (conn.due as number));
      conn.due = undefined;
      answered++;
      if (answered === total) {
        finished = true;
        clearTimeout(guard);
        const seconds = (now - start) / 1000;
        for (const c of all) c.socket.destroy();
        resolve({ latencies, rps: answered / seconds, seconds });
        return;
      }
      idle.push(conn);
      dispatch();
    };
    const onFailure = (conn: Connection, error: Error) => {
      if (finished || !all.includes(conn)) return;
      if (conn.due !== undefined) {
        fail(new Error(`request failed: ${error.message}`));
        return;
      }
      // An idle socket the server closed: replace it.
      const at = idle.indexOf(conn);
      if (at !== -1) idle.splice(at, 1);
      all.splice(all.indexOf(conn), 1);
      conn.socket.destroy();
      open().then(() => dispatch(), fail);
    };
    const open = () =>
      new Promise<void>((ready, refuse) => {
        const conn = new Connection(origin, onResponse, onFailure);
        all.push(conn);
        conn.socket.once('connect', () => {
          idle.push(conn);
          ready();
        });
        conn.socket.once('error', refuse);
      });

    Promise.all(Array.from({ length: options.connections }, open)).then(() => {
      start = performance.now();
      pump();
    }, fail);
  });
}
