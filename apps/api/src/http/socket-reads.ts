import type { Socket } from 'node:net';

const READ_THROUGH_JS = Symbol('animal-store.readThroughJs');
type MarkedSocket = Socket & { [READ_THROUGH_JS]?: true };

const ignore = () => {};

/**
 * Has Node hand the connection's further bytes to its HTTP parser through JavaScript, as it does
 * for any socket with a `data` listener. By default Node reads a server socket natively, which
 * costs less for requests without a body, but copies every body chunk into a buffer of its own
 * (memory outside V8's heap, which makes V8 collect more often): in the bench, a connection
 * sending creates costs about half the CPU per create once it is read through JavaScript. The
 * body reader calls this, so a connection switches at its first body and reads stay native.
 */
export function readThroughJs(socket: Socket): void {
  const marked = socket as MarkedSocket;
  if (marked[READ_THROUGH_JS]) return;
  marked[READ_THROUGH_JS] = true;
  socket.on('data', ignore);
}
