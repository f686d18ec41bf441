import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What Node keeps on a server socket (the same fields its own `clientError` handling reads). */
type ServerSocket = Socket & {
  _httpMessage?: ServerResponse | null;
  parser?: { incoming?: IncomingMessage | null } | null;
};

/**
 * Bounds the bytes a server reads of each request's line and headers to `maxBytes` (plus at
 * most one read of the socket). Node's `maxHeaderSize` counts only the characters of header
 * names and values: not line ends, colons or the white space around a value, so 8,100 one-byte
 * headers (48 KB) or a value padded with 20 MB of spaces pass a 16 KiB limit. Each connection's
 * bytes are counted while no request on it is being answered or having its body read; past
 * `maxBytes` the connection gets `refuse` (a `431`) and is read no further.
 *
 * Listening to a socket's data makes Node hand it over through JavaScript rather than read it
 * natively: the cost of one listener call per read.
 */
export function boundRequestHeads(
  server: Server,
  maxBytes: number,
  refuse: (socket: Socket) => void,
): void {
  server.on('connection', (socket: ServerSocket) => {
    let read = 0;
    const count = (chunk: Buffer) => {
      const incoming = socket.parser?.incoming;
      // A request being answered (pipelined heads wait behind it), or a body being read.
      if (socket._httpMessage || (incoming && !incoming.complete)) {
        read = 0;
        return;
      }
      read += chunk.length;
      if (read > maxBytes) {
        socket.off('data', count);
        socket.pause();
        refuse(socket);
      }
    };
    socket.on('data', count);
  });
}
