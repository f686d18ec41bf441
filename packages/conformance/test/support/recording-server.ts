// A server on 127.0.0.1 that keeps the bytes of each request as they came, below any HTTP
// library, and answers each connection's one request 201 with `{}` (or `answer`'s bytes).
import { createServer, type Socket } from 'node:net';
import type { HttpRequest } from '../../src/http/client.js';
import { RawConnection } from '../../src/http/raw-connection.js';
import { testClient } from './client.js';

export interface RecordingServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  /** Each request's bytes, head and body, as they came. */
  readonly received: Buffer[];
  close(): Promise<void>;
}

const CREATED =
  'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';

/** True once `bytes` hold a whole request: its head, and its body by length or last chunk. */
function whole(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd === -1) return false;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const body = bytes.subarray(headEnd + 4);
  const length = /^content-length: *(\d+)/im.exec(head)?.[1];
  if (length !== undefined) return body.length >= Number(length);
  if (!/^transfer-encoding: *chunked/im.test(head)) return true;
  // The last chunk (a size of 0, perhaps with an extension), trailer lines, then a blank line.
  return /(^|\r\n)0(;[^\r\n]*)?\r\n([^\r\n]+\r\n)*\r\n$/.test(body.toString('latin1'));
}

export async function startRecordingServer(answer = CREATED): Promise<RecordingServer> {
  const received: Buffer[] = [];
  const server = createServer((socket: Socket) => {
    let bytes = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      if (!whole(bytes)) return;
      received.push(bytes);
      socket.end(answer);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A request's head (lower case) and the bytes after it. */
export function splitRequest(bytes: Buffer): { head: string; body: Buffer } {
  const headEnd = bytes.indexOf('\r\n\r\n');
  return {
    head: bytes.subarray(0, headEnd).toString('latin1').toLowerCase(),
    body: bytes.subarray(headEnd + 4),
  };
}

/**
 * What the kit's client writes for `request` (on a `RawConnection` of its own with `raw`): the
 * status the recording server answered, and the request's bytes, split as `splitRequest` does.
 */
export async function writtenFor(
  request: HttpRequest,
  { raw = false, apiKey }: { raw?: boolean; apiKey?: string } = {},
): Promise<{ status: number; bytes: Buffer; head: string; body: Buffer }> {
  const server = await startRecordingServer();
  const connection = raw ? new RawConnection() : undefined;
  try {
    const http = testClient(server.baseUrl, undefined, apiKey === undefined ? {} : { apiKey });
    const res = await http.send({
      ...request,
      ...(connection === undefined ? {} : { connection }),
    });
    const bytes = server.received[0] as Buffer;
    return { status: res.status, bytes, ...splitRequest(bytes) };
  } finally {
    connection?.close();
    await server.close();
  }
}
