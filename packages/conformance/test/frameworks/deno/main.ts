// The Hono app of the kit's tests (test/support/hono-pet-app.ts), served by Deno.serve instead of
// @hono/node-server: the same app on Deno's own HTTP server (hyper, in Rust).
//
// Usage: API_KEY=... deno run --allow-env --allow-net --allow-read main.ts  (listens on
// 127.0.0.1, port 0; prints "listening on PORT"; stops when its stdin closes, so that it never
// outlives the test that started it)
import { honoPetApp } from '../../support/hono-pet-app.ts';

const server = Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`listening on ${port}`),
  },
  honoPetApp(Deno.env.get('API_KEY') ?? '').fetch,
);
for await (const _ of Deno.stdin.readable) {
}
await server.shutdown();
Deno.exit(0);
