import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ChunkedFraming, Connection, Outgoing } from './client.js';
import { saysClose } from './close-option.js';
import { withoutContentCoding } from './content-coding.js';
import { absoluteTarget, connectHost, originTarget } from './request-target.js';

/** What reading says of bytes where an answer should begin and none does. */
export const NOT_AN_ANSWER = 'not an HTTP answer';

/** An answer's head: its status and header lines, and where its body starts in the bytes read. */
interface Head {
  readonly status: number;
  readonly lines: readonly (readonly [string, string])[];
  readonly bodyAt: number;
}

/** What ends an answer's body: a length, the chunked coding, or the connection's end. */
type Framing = { length: number } | 'chunked' | 'close';

/**
 * One connection, by TCP or TLS, on which requests go one after another, each written whole once
 * the answer before it has been read, and on which the bytes that follow an answer are read as the
 * next answer, whatever the server meant them for. node:http's agent drops bytes a server sends
 * between answers, or the connection with them, and sends the next request on another: that hides
 * a server that takes a body it left unread for the next request (RFC 9112 §9.3 has it read the
 * body or close the connection). A new connection is made when the server has closed the last one
 * or said it would, or the last request asked it to; until then, the bytes that follow the last
 * answer on the old one can still be read (`afterLastAnswer`). Requests can also be pipelined
 * (`pipeline`): written together, before any answer, each answer read in its turn.
 */
export class RawConnection implements Connection {
  #socket: Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;
  /** The last answer or request said the connection ends after it: no request goes on it. */
  #spent = false;
  #timeoutMs = 0;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  /** How many of the next requests are still to be held for one write (`pipeline`). */
  #toHold = 0;
  #held: Buffer[] = [];
  /** Resolves once the held requests are written (or given up). */
  #heldWritten: Promise<void> = Promise.resolve();
  #writeHeld = () => {};
  /** The last request's read: true once its answer has been read, false when it could not be. */
  #lastRead: Promise<boolean> = Promise.resolve(true);

  /**
   * Pipelines the next `count` requests sent (RFC 9112 §9.3.2): each is held until the last of
   * them is sent, then all go in one write, before any answer has come. Each gets the answer read
   * off the connection in its turn; one whose turn follows an answer that could not be read, or
   * one that said the connection ends, gets a hang-up: it goes on no other connection of this one.
   */
  pipeline(count: number): void {
    this.#toHold = count;
    this.#held = [];
    this.#heldWritten = new Promise((resolve) => {
      this.#writeHeld = resolve;
    });
  }

  /**
   * Sends one request (its head and whole body in one write, unless held for `pipeline`) and
   * reads its answer: the next one on the connection once the answers before it are read.
   */
  async send(outgoing: Outgoing): Promise<Response> {
    const { url, method, headers, timeoutMs } = outgoing;
    const target = new URL(url);
    const bytes = requestBytes(target, outgoing);
    // The request's place is taken as it is sent: its answer is read after those sent before it.
    const turn = this.#lastRead;
    let read = (_answered: boolean) => {};
    this.#lastRead = new Promise((resolve) => {
      read = resolve;
    });
    const held = this.#toHold > 0;
    const heldWritten = this.#heldWritten;
    if (held) {
      this.#held.push(bytes);
      this.#toHold -= 1;
    }
    // The timeout counts from the start: a connection that never opens ends too, and so do held
    // requests whose last one never comes.
    const timer = setTimeout(() => {
      this.#fail(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
      this.#writeHeld();
    }, timeoutMs);
    this.#timeoutMs = timeoutMs;
    try {
      if (held && this.#toHold === 0) {
        const socket = await this.#open(target);
        socket.write(Buffer.concat(this.#held));
        this.#held = [];
        this.#writeHeld();
      }
      if (held) await heldWritten;
      const answered = await turn;
      if (held && (!answered || this.#spent)) throw hangUp();
      if (!held) {
        (await this.#open(target)).write(bytes);
        this.#spent = saysClose(Object.entries(headers));
      }
      const answer = await this.#answer(method);
      read(true);
      return answer;
    } catch (error) {
      // What follows an answer that could not be read cannot be told apart: the next request goes
      // on a new connection.
      read(false);
      this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Half-closes the connection, as a client that has nothing more to send does, and reads until
   * the server closes it (or the last request's timeout passes: then `closed` is false). The
   * bytes are all that came after the last answer: nothing, from a server that processes no
   * request after one that asked to close (RFC 9112 §9.6).
   */
  async afterLastAnswer(): Promise<{ readonly bytes: Buffer; readonly closed: boolean }> {
    const socket = this.#socket;
    if (socket !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#timeoutMs);
      });
      socket.end();
      while (!this.#ended && this.#failure === undefined) {
        if ((await Promise.race([this.#more().then(() => true), timedOut])) !== true) break;
      }
      clearTimeout(timer);
    }
    const closed = this.#ended || this.#failure !== undefined || this.#socket === undefined;
    return { bytes: this.#buffer, closed };
  }

  /** Ends the connection, and drops the requests held for it. */
  close(): void {
    this.#endSocket();
    this.#held = [];
    this.#toHold = 0;
    this.#writeHeld();
  }

  #endSocket(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  async #open(target: URL): Promise<Socket> {
    if (this.#socket !== undefined && !this.#spent && !this.#ended && this.#failure === undefined) {
      return this.#socket;
    }
    this.#endSocket();
    this.#buffer = Buffer.alloc(0);
    this.#ended = false;
    this.#spent = false;
    this.#failure = undefined;
    const secure = target.protocol === 'https:';
    const port = Number(target.port || (secure ? 443 : 80));
    const host = connectHost(target);
    const socket = secure
      ? tlsConnect({ host, port, servername: /^[\d.]+$|:/.test(host) ? undefined : host })
      : tcpConnect({ host, port });
    this.#socket = socket;
    // What a connection given up does after it changes nothing: the next one has the state.
    const current = () => this.#socket === socket;
    socket.on('data', (chunk: Buffer) => {
      if (!current()) return;
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    const ended = () => {
      if (!current()) return;
      this.#ended = true;
      this.#wake?.();
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', (error) => {
      if (current()) this.#fail(error);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once(secure ? 'secureConnect' : 'connect', resolve);
      socket.once('error', reject);
      socket.once('close', () => reject(this.#failure ?? new Error('socket hang up')));
    });
    return socket;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#socket?.destroy();
    this.#wake?.();
  }

  /** Resolves once more bytes came, the connection ended or failed. */
  #more(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Waits until `ready` finds what it needs in the buffer, more bytes coming in the meantime. */
  async #until<T>(ready: () => T | undefined, atEnd: () => T | undefined): Promise<T> {
    for (;;) {
      const found = ready();
      if (found !== undefined) return found;
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended) {
        const last = atEnd();
        if (last !== undefined) return last;
        const error = new Error(
          this.#buffer.length === 0 ? 'socket hang up' : 'the connection closed mid-answer',
        );
        throw Object.assign(error, { code: 'ECONNRESET' });
      }
      await this.#more();
    }
  }

  /** Reads the next final answer (interim `1xx` answers skipped) off the buffer. */
  async #answer(method: string): Promise<Response> {
    for (;;) {
      const head = await this.#until(
        () => readHead(this.#buffer),
        () => undefined,
      );
      if (head.status >= 100 && head.status <= 199) {
        this.#buffer = this.#buffer.subarray(head.bodyAt);
        continue;
      }
      const framing = framingOf(method, head);
      const [body, rest] = await this.#until(
        () => readBody(this.#buffer, head.bodyAt, framing),
        () =>
          framing === 'close' ? [this.#buffer.subarray(head.bodyAt), Buffer.alloc(0)] : undefined,
      );
      this.#buffer = rest;
      // An answer that says close spends the connection; one whose body ended with the
      // connection has ended it already (`#ended`).
      if (saysClose(head.lines)) this.#spent = true;
      const headers = new Headers();
      for (const [name, value] of head.lines) headers.append(name, value);
      const coding = headers.get('content-encoding') ?? undefined;
      // An answer without content (to HEAD, a 204, a 304) names the coding GET's content has.
      const bytes = hasNoContent(method, head.status) ? body : withoutContentCoding(body, coding);
      if (bytes === undefined)
        throw new Error(`the body is not in its Content-Encoding: ${coding}`);
      const empty = [204, 205, 304].includes(head.status);
      return new Response(empty ? null : bytes, { status: head.status, headers });
    }
  }
}

/** Why a request the kit did not send on its connection, or whose answer it gave up, got none. */
function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** The request's bytes: its head, with `Host` first, and its body, chunked when `chunked`. */
function requestBytes(
  target: URL,
  { method, headers, body, chunked, absoluteForm, chunkedFraming }: Outgoing,
): Buffer {
  const requestTarget = absoluteForm ? absoluteTarget(target) : originTarget(target);
  const lines = [`${method} ${requestTarget} HTTP/1.1`, `host: ${target.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined && chunked) lines.push('transfer-encoding: chunked');
  else if (body !== undefined) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (body === undefined) return head;
  if (!chunked) return Buffer.concat([head, body]);
  if (chunkedFraming !== undefined) return Buffer.concat([head, chunkedBody(body, chunkedFraming)]);
  const size = Buffer.from(`${body.length.toString(16)}\r\n`, 'latin1');
  return Buffer.concat([head, size, body, Buffer.from('\r\n0\r\n\r\n', 'latin1')]);
}

/** `body` in the chunked coding as `framing` has it: two chunks, then the last and the trailer. */
function chunkedBody(body: Uint8Array, { extension = '', trailer = [] }: ChunkedFraming): Buffer {
  const half = Math.floor(body.length / 2);
  const chunk = (data: Uint8Array) => [
    Buffer.from(`${data.length.toString(16)}${extension}\r\n`, 'latin1'),
    data,
    Buffer.from('\r\n', 'latin1'),
  ];
  const last = `0${extension}\r\n${trailer.map((line) => `${line}\r\n`).join('')}\r\n`;
  return Buffer.concat([
    ...chunk(body.subarray(0, half)),
    ...chunk(body.subarray(half)),
    Buffer.from(last, 'latin1'),
  ]);
}

/** The answer's head at the start of `bytes`, once all of it has come. */
function readHead(bytes: Buffer): Head | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...rest] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/\d\.\d (\d{3})(?: |$)/.exec(statusLine);
  if (status === null) {
    throw new Error(`${NOT_AN_ANSWER}: ${JSON.stringify(statusLine.slice(0, 60))}`);
  }
  const lines = rest.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  return { status: Number(status[1]), lines, bodyAt: end + 4 };
}

/** True for an answer that has no content, whatever its header lines say (RFC 9112 §6.3). */
function hasNoContent(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304;
}

/** How the answer's body ends (RFC 9112 §6.3). */
function framingOf(method: string, head: Head): Framing {
  const { status, lines } = head;
  if (hasNoContent(method, status)) return { length: 0 };
  const value = (name: string) => lines.find(([n]) => n === name)?.[1];
  if (/(^|,)\s*chunked\s*$/i.test(value('transfer-encoding') ?? '')) return 'chunked';
  const length = value('content-length');
  return length === undefined ? 'close' : { length: Number(length) };
}

/** The body that starts at `at` in `bytes` and what follows it, once all of it has come. */
function readBody(bytes: Buffer, at: number, framing: Framing): [Buffer, Buffer] | undefined {
  if (framing === 'close') return undefined;
  if (framing !== 'chunked') {
    const end = at + framing.length;
    return bytes.length < end ? undefined : [bytes.subarray(at, end), bytes.subarray(end)];
  }
  const chunks: Buffer[] = [];
  let offset = at;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a chunk of the answer has no size');
    if (size === 0) {
      // The trailer section, if any, ends with an empty line.
      const end = bytes.indexOf('\r\n\r\n', lineEnd);
      const last = bytes.subarray(lineEnd, lineEnd + 4).toString('latin1') === '\r\n\r\n';
      const after = last ? lineEnd + 4 : end === -1 ? -1 : end + 4;
      return after === -1 ? undefined : [Buffer.concat(chunks), bytes.subarray(after)];
    }
    const start = lineEnd + 2;
    if (bytes.length < start + size + 2) return undefined;
    chunks.push(bytes.subarray(start, start + size));
    offset = start + size + 2;
  }
}
