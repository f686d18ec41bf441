// The Hono app of the kit's tests (test/support/hono-pet-app.ts), served by Bun.serve instead of
// @hono/node-server: the same app on Bun's own HTTP server.
//
// Usage: API_KEY=... bun main.ts  (listens on 127.0.0.1, port 0; prints "listening on PORT";
// stops when its stdin closes, so that it never outlives the test that started it)
import { honoPetApp } from '../../support/hono-pet-app.ts';

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: honoPetApp(process.env.API_KEY ?? '').fetch,
});
console.log(`listening on ${server.port}`);
for await (const _ of Bun.stdin.stream()) {
}
process.exit(0);
