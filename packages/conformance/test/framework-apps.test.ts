// The kit against real web frameworks rather than fakes of them: the same Express app, written from
// the spec with Express's defaults, on Express 4 and on Express 5, a Koa app, an h3 app, a Fastify
// app, a Hono app (with Zod, on @hono/node-server and on Bun's and Deno's own servers), an Elysia
// app (on Bun), a hapi app (with Joi), a NestJS app (compiled by tsc), a Flask app (on Werkzeug's
// server and on gunicorn), an aiohttp app, a Tornado app, a Sanic app, a Falcon app and a Pyramid
// app (on waitress), a CherryPy app (on cheroot), a Bottle app (on wsgiref, its default server), a FastAPI app, a
// Litestar app, a Connexion app (driven by the contract's OpenAPI document) and a Django REST
// framework app (Python, each pinned in its frameworks/*/requirements.txt), a Go app (the standard
// library alone, frameworks/go), a Gin app, an Echo app, a Fiber app (on fasthttp), a Hertz app and
// an app oapi-codegen generates from the contract's OpenAPI document (each pinned in its
// frameworks/*/go.mod), an axum app, an actix-web app and a Rocket app (Rust, each pinned in its
// frameworks/*/Cargo.lock), a Spring Boot app, a Javalin app, a Jersey app, a Vert.x app, a Helidon
// app and an app on the JDK's own HTTP server (Java), a Ktor app (Kotlin) and a Pekko HTTP app
// (Scala; each pinned in its frameworks/*/pom.xml), a Scotty app (Haskell), a plumber app (R), an
// Ulfius app (C), a Compojure app (Clojure), a cohttp app (OCaml), a lua-http app (Lua), a
// cpp-httplib app (C++), a MochiWeb app (Erlang), an HttpListener app (C# on Mono, Json.NET), a
// Nim app and a Hunchentoot app (Common Lisp; the eleven on Debian's packages), a Sinatra app,
// a Grape app and a Rails app (Ruby), a
// Mojolicious app and a Dancer2 app on Starman (Perl), a Symfony app and a Lumen app (PHP; the Lumen app also behind nginx and
// PHP-FPM), on Debian's packages, written the same way. What the kit fails is each framework's
// doing, named below; no false alarm may come from any. The apps, and what the kit fails on each,
// are in support/framework-apps.ts; framework-apps-proxy.test.ts runs the kit again through its
// proxy in front of each.

import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConformanceReport, runConformance } from '../src/index.js';
import { API_KEY, type FrameworkApp, frameworkApps } from './support/framework-apps.js';
import { failed, notPassed, resultOf } from './support/run-kit.js';

const built = new TemporaryFolder('conformance-framework-apps-');
afterAll(() => built.remove());
const APPS = frameworkApps(built);

/** Starts the app named, runs the kit against it, stops it. */
async function runOn(name: keyof typeof APPS): Promise<ConformanceReport> {
  const app = await (APPS[name] as FrameworkApp).start();
  try {
    // The apps' key ends with them: the kit may send it where servers log keys.
    return await runConformance({ baseUrl: app.baseUrl, apiKey: API_KEY, disposableKey: true });
  } finally {
    await app.stop();
  }
}

const message = (report: ConformanceReport, id: string) => resultOf(report, id).message;

describe('the kit against an Express app written from the spec', () => {
  it('passes it on Express 5, whose query parser reads names as sent', async () => {
    const report = await runOn('Express 5');
    expect(report.verdict, notPassed(report).join('\n')).toBe('pass');
  });

  it("fails it on Express 4 for limit[]=1 alone: its query parser (qs) reads ['1'], a limit of 1", async () => {
    const report = await runOn('Express 4');
    expect(failed(report), notPassed(report).join('\n')).toEqual(APPS['Express 4']?.fails);
    expect(message(report, 'listPets.bracketed-limit')).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
  });
});

describe('the kit against a Koa app written from the spec (@koa/router, @koa/bodyparser)', () => {
  it("fails it where @koa/router's key middleware under the /v1 prefix lets /V1/pets through, and nowhere else", async () => {
    const report = await runOn('Koa');
    expect(failed(report), notPassed(report).join('\n')).toEqual(APPS.Koa?.fails);
    expect(message(report, 'auth.every-read-shape')).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/V1\/pets without Authorization \(another spelling of listPets's path\) answered 200/,
    );
    // @koa/bodyparser's 1 MiB limit answers a larger NewPet 413 (§8 sets no size).
    expect(message(report, 'createPet.large-body')).toMatch(/answered 413$/);
  });
});

describe('the kit against an h3 app written from the spec (h3 2, srvx on node:http)', () => {
  it('passes it, readBody reading a body without Content-Type as JSON (a should: 415 is advised)', async () => {
    const report = await runOn('h3');
    expect(report.verdict, notPassed(report).join('\n')).toBe('pass');
    expect(resultOf(report, 'createPet.other-media-types-rejected')).toMatchObject({
      level: 'should',
      outcome: 'advisory',
      message: expect.stringMatching(/with no Content-Type answered 201/),
    });
  });
});

describe('the kit against a Fastify app written from the spec', () => {
  it("fails it where Fastify's validation (Ajv, coerceTypes: 'array') coerces, and nowhere else", async () => {
    const report = await runOn('Fastify');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Fastify?.fails);
    // null becomes "" and 0; ["available"] becomes "available"; "0x1" == +"0x1" is the integer 1.
    expect(message(report, 'createPet.invalid-name')).toMatch(/name null answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId null answered 201/,
    );
    expect(message(report, 'createPet.invalid-status')).toMatch(
      /an array \(\["\w+"\]\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
  });
});

describe('the kit against a Hono app written from the spec (bearerAuth, Zod)', () => {
  it("fails it where Hono's bearerAuth answers 400 and z.coerce reads petIds, and nowhere else", async () => {
    const report = await runOn('Hono');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Hono?.fails);
    // bearerAuth answers 400 to an Authorization that is no "Bearer <token>"; §5 says 401.
    expect(message(report, 'auth.listPets.wrong-scheme')).toMatch(
      /with "Basic <valid key>" answered 400, expected 401/,
    );
    expect(message(report, 'auth.every-read-shape')).toMatch(/answered 400, expected 401/);
    // z.coerce.number() is Number(): "0x1" is 1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
  });
});

describe('the kit against the Hono app on Bun (Bun.serve)', () => {
  it("fails the checks it fails on Node: Bun's HTTP server adds no failure", async () => {
    const report = await runOn('Hono on Bun');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Hono?.fails);
  }, 600_000);
});

describe('the kit against the Hono app on Deno (Deno.serve)', () => {
  it("fails the checks it fails on Node: Deno's HTTP server adds no failure", async () => {
    const report = await runOn('Hono on Deno');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Hono?.fails);
  }, 600_000);
});

describe('the kit against an Elysia app written from the spec (on Bun, TypeBox)', () => {
  it("fails it where Elysia's schemas, body parser and error messages break the spec, and nowhere else", async () => {
    const report = await runOn('Elysia');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Elysia?.fails);
    // t.UnionEnum carries its first value as a default, which Elysia fills in for an absent
    // status filter: an unfiltered list holds only available pets.
    expect(message(report, 'listPets.limit-100')).toMatch(
      /limit=100 returned \d+ pets although at least 101 exist/,
    );
    // t.Integer() takes any integral number; the path's is read with Number().
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId 2\^64 \(18446744073709551616\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
    // Its parser picks a body's reader by the Content-Type's 13th character, as written.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 400/,
    );
    // The 400's summary writes the value out with `${value}`, which recurses through the arrays.
    expect(message(report, 'createPet.deep-nesting')).toMatch(
      /nested 10001 deep as the name answered 500/,
    );
  }, 600_000);
});

describe('the kit against a hapi app written from the spec (Joi)', () => {
  it("fails it where Joi's conversions break the spec, and nowhere else", async () => {
    const report = await runOn('hapi');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.hapi?.fails);
    // Joi converts by default: "7" is the number 7, and " 7" too.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId an integer in a string \("\d+"\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/%20\d+ answered 200/);
  });
});

describe('the kit against a NestJS app written from the spec (ValidationPipe, class-validator)', () => {
  it("fails it where Nest's pipes and class-validator break the spec, and nowhere else", async () => {
    const report = await runOn('NestJS');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.NestJS?.fails);
    // ValidationPipe({ transform: true }) turns a number-typed path parameter into +value before
    // ParseIntPipe sees it: "0x1" is 1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
    // @IsOptional() lets null through, and the answer carries it.
    expect(message(report, 'errors.pet-fields')).toMatch(/answered 201: not a valid Pet: status/);
    // class-transformer copies the body into the DTO recursively: a deep member overflows the stack.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 10001 deep .* answered 500/);
  }, 600_000);
});

describe('the kit against a Go app written from the spec (net/http, encoding/json)', () => {
  it("fails it where encoding/json's Decoder reads more than the spec's JSON, and nowhere else", async () => {
    const report = await runOn('Go');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Go?.fails);
    // Members match fields in any letter case, the last one winning; Decode reads one value.
    expect(message(report, 'createPet.missing-name-other-case')).toMatch(
      /with Name but no name answered 201/,
    );
    expect(message(report, 'createPet.recased-members')).toMatch(/with Name beside name: name is/);
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /a second NewPet after the first answered 201/,
    );
  }, 600_000);
});

describe('the kit against a Gin app written from the spec', () => {
  it("fails it where encoding/json does, and where Gin's binding trims a petId", async () => {
    const report = await runOn('Gin');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Gin?.fails);
    // Gin's form and URI binding takes white space off before strconv.ParseInt reads it.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/%20\d+ answered 200/);
  }, 600_000);
});

describe('the kit against a Fiber app written from the spec (fasthttp)', () => {
  it("fails it where encoding/json matches members and Fiber's binder reads query names, and nowhere else", async () => {
    const report = await runOn('Fiber');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Fiber?.fails);
    // json.Unmarshal matches members in any letter case, but refuses what follows the value.
    expect(message(report, 'createPet.missing-name-other-case')).toMatch(
      /with Name but no name answered 201/,
    );
    // Fiber's query binder lowercases each name and reads limit[] as limit.
    expect(message(report, 'listPets.recased-limit')).toMatch(/LIMIT=1 returned 1 pet/);
    expect(message(report, 'listPets.bracketed-limit')).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
  }, 600_000);
});

describe('the kit against an Echo app written from the spec', () => {
  it("fails it where encoding/json matches members and Echo's binder reads media types and query names, and nowhere else", async () => {
    const report = await runOn('Echo');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Echo?.fails);
    // Echo's binder compares the media type as written with application/json.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 400, expected 201.*\nserver said: .*Unsupported Media Type/,
    );
    // And it matches query names in any letter case, as encoding/json does members.
    expect(message(report, 'listPets.recased-limit')).toMatch(/LIMIT=1 returned 1 pet/);
    expect(message(report, 'createPet.missing-name-other-case')).toMatch(
      /with Name but no name answered 201/,
    );
  }, 600_000);
});

describe('the kit against a Hertz app written from the spec (netpoll, sonic)', () => {
  it("fails it where Hertz's required tag and sonic's matching of members break the spec, and nowhere else", async () => {
    const report = await runOn('Hertz');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Hertz?.fails);
    // `required` asks only that the member is there: a null passes, and the nil name panics; the
    // recovery middleware answers 500 with no body.
    expect(message(report, 'createPet.invalid-name')).toMatch(/name null answered 500/);
    expect(message(report, 'errors.json-body')).toMatch(/answered 500: Content-Type is missing/);
    // sonic's standard configuration matches members in any letter case, the last one winning;
    // but `required` looks for the member as spelled, so Name without name is refused.
    expect(message(report, 'createPet.recased-members')).toMatch(/with Name beside name: name is/);
    expect(resultOf(report, 'createPet.missing-name-other-case').outcome).toBe('pass');
  }, 600_000);
});

describe('the kit against a Flask app written from the spec', () => {
  it("fails it where Python's defaults break the spec, and nowhere else", async () => {
    const report = await runOn('Flask');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Flask?.fails);
    // CPython's json.loads raises RecursionError, no ValueError: get_json lets it through.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // Werkzeug's int converter: \d+ matches any script's digits, and int() reads them.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
    // int() reads the limit 1_0 as 10; §8 sets no answer for a limit that is no integer: a should.
    expect(resultOf(report, 'listPets.limit-out-of-range-rejected')).toMatchObject({
      level: 'should',
      outcome: 'advisory',
      message: expect.stringMatching(/limit=1_0 answered 200/),
    });
  }, 600_000);
});

describe('the kit against the Flask app on gunicorn (one sync worker)', () => {
  it("fails the checks it fails on Werkzeug's server: gunicorn adds no failure", async () => {
    const report = await runOn('Flask on gunicorn');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Flask?.fails);
  }, 600_000);
});

describe('the kit against a CherryPy app written from the spec (on cheroot)', () => {
  it("fails it where CherryPy's tools and Python's defaults break the spec, and nowhere else", async () => {
    const report = await runOn('CherryPy');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.CherryPy?.fails);
    // A parameter given twice reaches the handler as a list, which int() cannot read.
    expect(message(report, 'listPets.repeated-parameter')).toMatch(/limit=3&limit=5 answered 500/);
    // The json_in tool compares the media type as written.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 415/,
    );
    // int() reads "0_1" as 1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
    // HTTP lets it refuse a body without Content-Length, which json_in does: a should.
    expect(resultOf(report, 'createPet.chunked-accepted')).toMatchObject({
      level: 'should',
      outcome: 'advisory',
      message: expect.stringMatching(/chunked answered 411/),
    });
    // But cheroot keeps the connection open with that body unread, and reads it as a request.
    expect(message(report, 'createPet.unread-body')).toMatch(
      /after POST \/pets with a NewPet without name, sent chunked \(answered 411\) on its connection answered 400 \("Malformed Request-Line"\)/,
    );
  }, 600_000);
});

describe('the kit against an aiohttp app written from the spec', () => {
  it("fails it where Python's json and re break the spec, and nowhere else", async () => {
    const report = await runOn('aiohttp');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.aiohttp?.fails);
    // request.json() is json.loads: RecursionError past about 1,000 levels, no ValueError.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // The route's \d+ is Python's, which matches any script's digits, and int() reads them.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
  }, 600_000);
});

describe('the kit against a Tornado app written from the spec (its own HTTP server)', () => {
  it("fails it where Python's json breaks the spec, and nowhere else", async () => {
    const report = await runOn('Tornado');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Tornado?.fails);
    // json.loads raises RecursionError, no ValueError, and Tornado answers what escapes with 500.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
  }, 600_000);
});

describe('the kit against a Sanic app written from the spec (its own HTTP server, ujson)', () => {
  it("fails it where Sanic's router reads an int segment with Python's int(), and nowhere else", async () => {
    const report = await runOn('Sanic');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Sanic?.fails);
    // sanic-routing casts the segment with int(), which reads "0_1" (and "+1") as 1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
  }, 600_000);
});

describe('the kit against a Falcon app written from the spec (on waitress)', () => {
  it("fails it where Falcon's media handlers, Python's json and int() break the spec, and nowhere else", async () => {
    const report = await runOn('Falcon');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Falcon?.fails);
    // A body's media handler is found by the Content-Type as written.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 415/,
    );
    // get_media() turns json.loads' ValueError into a 400, not its RecursionError.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // The stored \uD800 cannot be encoded into an answer as UTF-8: the create is answered 500.
    expect(message(report, 'createPet.unpaired-surrogate')).toMatch(/\\uD800.* answered 500/);
    // The int converter refuses white space and reads the rest with int().
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
  }, 600_000);
});

describe('the kit against a Pyramid app written from the spec (on waitress)', () => {
  it("fails it where WebOb's decoding, Pyramid's routes and Python's json break the spec, and nowhere else", async () => {
    const report = await runOn('Pyramid');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Pyramid?.fails);
    // WebOb decodes the query as strict UTF-8: its UnicodeDecodeError is no HTTP error.
    expect(message(report, 'listPets.limit-out-of-range')).toMatch(/limit=10%FF answered 500/);
    // request.json_body is json.loads: its RecursionError is no ValueError.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // The route's \d+ is re's: any script's digits, which int() reads.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
  }, 600_000);
});

describe("the kit against a Bottle app written from the spec (on wsgiref, Bottle's default server)", () => {
  it("fails it where Bottle's request.json, its int filter and Python's json break the spec, and nowhere else", async () => {
    const report = await runOn('Bottle');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Bottle?.fails);
    // request.json reads a body only when the media type, cut at the first ';', is
    // application/json as written: the white space before the ';' (RFC 9110 §5.6.3) stays on it.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: application\/json ; charset="utf-8" answered 400/,
    );
    // request.json turns json.loads' ValueError into a 400, not its RecursionError.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // The int filter matches -?\d+, any script's digits, and int() reads them.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
    // wsgiref puts a request target in absolute form into PATH_INFO as written: no route has it.
    expect(resultOf(report, 'listPets.absolute-form')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^GET \/pets\?limit=1 with the key, its target in absolute form \(http:.*answered 404 .*\nserver said: code "not_found", message "Not found: 'http:/,
      ),
    });
  }, 600_000);
});

describe('the kit against a FastAPI app written from the spec', () => {
  it("fails it where Pydantic's lax mode and Python's json break the spec, and nowhere else", async () => {
    const report = await runOn('FastAPI');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.FastAPI?.fails);
    // Lax mode reads true as 1 and "0_1" as 1, as Python's int() does.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a boolean \(true\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
    // `Status | None` takes null, and the answer carries it.
    expect(message(report, 'errors.pet-fields')).toMatch(/answered 201: not a valid Pet: status/);
    // json.loads decodes bytes with 'surrogatepass': the lone surrogate fails only on the way out.
    expect(message(report, 'createPet.not-utf8')).toMatch(/surrogate .* answered 500/);
  }, 600_000);
});

describe('the kit against a Litestar app written from the spec (msgspec, uvicorn)', () => {
  it("fails it where Litestar's lax conversions and msgspec's depth limit break the spec, and nowhere else", async () => {
    const report = await runOn('Litestar');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Litestar?.fails);
    // Litestar converts a handler's arguments with msgspec's strict=False: "7" is the integer 7.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId an integer in a string \("\d+"\) answered 201/,
    );
    // msgspec raises RecursionError past about 1,000 levels, which Litestar answers with 500.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
    // An {pet_id:int} path parameter is read with Python's int().
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
  }, 600_000);
});

describe('the kit against a Django REST framework app written from the spec', () => {
  it("fails it where DRF's serializers, renderers and JSON parser break the spec, and nowhere else", async () => {
    const report = await runOn('Django REST framework');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['Django REST framework']?.fails,
    );
    // CharField takes 7 as "7" and trims white space; IntegerField takes "7" as 7.
    expect(message(report, 'createPet.invalid-name')).toMatch(/name a number \(7\) answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId an integer in a string \("\d+"\) answered 201/,
    );
    expect(message(report, 'createPet.string-boundaries')).toMatch(/padded with spaces: name is/);
    // The browsable API answers a browser's Accept with HTML; json.loads' RecursionError is a 500.
    expect(message(report, 'listPets.request-shapes')).toMatch(
      /Accept: text\/html.* answered 200: Content-Type is "text\/html"/,
    );
    expect(message(report, 'errors.json-body')).toMatch(
      /answered 401: Content-Type is "text\/html"[\s\S]*-H 'Accept: text\/html,/,
    );
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 1001 deep .* answered 500/);
  }, 600_000);
});

describe('the kit against an axum app written from the spec (serde, serde_json)', () => {
  it("fails it where axum's Json extractor reads Content-Type more narrowly than HTTP, and nowhere else", async () => {
    const report = await runOn('axum');
    expect(failed(report), notPassed(report).join('\n')).toEqual(APPS.axum?.fails);
    // The mime crate takes no white space before ";", which RFC 9110 allows: axum answers 415.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: application\/json ; charset="utf-8" answered 415/,
    );
  }, 600_000);
});

describe('the kit against an actix-web app written from the spec (serde, serde_json)', () => {
  it("fails it where actix-web's Json extractor reads Content-Type more narrowly than HTTP, and nowhere else", async () => {
    const report = await runOn('actix-web');
    expect(failed(report), notPassed(report).join('\n')).toEqual(APPS['actix-web']?.fails);
    // The mime crate, as under axum; actix-web answers its content type error with 400.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: application\/json ; charset="utf-8" answered 400/,
    );
  }, 600_000);
});

describe("the kit against a Rocket app written from the spec (serde_json, Rocket's forms)", () => {
  it("fails it where Rocket's media types and form field names break the spec, and nowhere else", async () => {
    const report = await runOn('Rocket');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Rocket?.fails);
    // Its media type parser takes no white space before ";": the route's format = "json" does
    // not match the request, which no route takes.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: application\/json ; charset="utf-8" answered 404/,
    );
    // A query field is matched by its name's first key: limit[] and limit[0] are limit.
    expect(message(report, 'listPets.bracketed-limit')).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
  }, 600_000);
});

describe('the kit against a Spring Boot app written from the spec (Spring MVC, Tomcat, Jackson)', () => {
  it("fails it where Jackson's coercions and Spring's readers of numbers and parameters break the spec, and nowhere else", async () => {
    const report = await runOn('Spring Boot');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS['Spring Boot']?.fails);
    // Jackson reads 1.5 as the long 1 (ACCEPT_FLOAT_AS_INT), true as the string "true", and 0 as
    // the enum's first value; the pet then shows a categoryId other than the one sent.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a fraction \(1\.5\) answered 201/,
    );
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /name a boolean \(true\) answered 201/,
    );
    expect(message(report, 'createPet.invalid-status')).toMatch(
      /status a number \(0\) answered 201/,
    );
    // Spring's number reader takes 0x1 as Long.decode does; its parameter reader takes limit[].
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
    expect(message(report, 'listPets.bracketed-limit')).toMatch(
      /limit%5B%5D=1 returned 1 pet although at least/,
    );
    // Its multipart resolver throws on a multipart Content-Type that names no boundary: a 500.
    expect(message(report, 'createPet.other-media-types')).toMatch(
      /multipart\/form-data with no boundary answered 500/,
    );
    // Tomcat throws on a query value that is no UTF-8, which Spring maps to no 4xx: a 500.
    expect(message(report, 'listPets.limit-out-of-range')).toMatch(/limit=10%FF answered 500/);
  }, 600_000);
});

describe('the kit against a Javalin app written from the spec (Jetty, Jackson)', () => {
  it("fails it where Jetty's header cache, Jackson's coercions and Javalin's readers break the spec, and nowhere else", async () => {
    const report = await runOn('Javalin');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Javalin?.fails);
    // Jetty matches a header value to the connection's last one in any letter case: right after
    // the key case-swapped, the valid key is that key; right after the valid key, the other way.
    expect(message(report, 'auth.listPets.valid-key-after-other-case')).toMatch(
      /with the valid key, on a connection that had just carried it in the other letter case answered 401/,
    );
    expect(message(report, 'auth.listPets.key-case-changed')).toMatch(
      /on a connection that had just carried the valid key answered 200 .*, expected 401/,
    );
    // Jackson reads 1.5 as 1, true as "true", 0 as the enum's first value; one value of many.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(/answered 201/);
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /a second NewPet after the first answered 201/,
    );
    // Context.method() takes X-HTTP-Method-Override; Long.parseLong takes any script's digits.
    expect(message(report, 'createPet.method-override')).toMatch(
      /X-HTTP-Method-Override: GET answered 200/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
    // HEAD on a pet that does not exist is answered 200, where GET is answered 404.
    expect(resultOf(report, 'getPet.head')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(/^HEAD \/pets\/\d+ .*answered 200 where GET answered 404/),
    });
  }, 600_000);
});

describe('the kit against a Jersey app written from the spec (JAX-RS, Grizzly, Jackson)', () => {
  it("fails it where Jackson's coercions and JAX-RS's readers of parameters break the spec, and nowhere else", async () => {
    const report = await runOn('Jersey');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Jersey?.fails);
    // Jackson's defaults, as in the Spring Boot and Javalin apps.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a fraction \(1\.5\) answered 201/,
    );
    // A long path parameter is read by Long.valueOf, which takes any script's digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/[٠-٩]+ answered 200/);
    // JAX-RS answers a query parameter it cannot convert 404; §8 sets no answer for it: a should.
    expect(resultOf(report, 'listPets.limit-out-of-range-rejected')).toMatchObject({
      level: 'should',
      outcome: 'advisory',
      message: expect.stringMatching(/limit=abc answered 404/),
    });
  }, 600_000);
});

describe("the kit against an app on the JDK's own HTTP server (com.sun.net.httpserver, Jackson)", () => {
  it("fails it where Jackson's defaults and Long.parseLong break the spec, and nowhere else", async () => {
    const report = await runOn('JDK HttpServer with Jackson');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['JDK HttpServer with Jackson']?.fails,
    );
    // ObjectMapper's defaults: FAIL_ON_TRAILING_TOKENS is off, so the first NewPet is read alone.
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /a second NewPet after the first answered 201/,
    );
    // Long.parseLong reads any script's digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/[٠-٩]+ answered 200/);
    // Its reader of a chunked body throws on a trailer field, which the app answers 500.
    expect(message(report, 'createPet.trailer-fields')).toMatch(/answered 500, expected 201/);
    expect(message(report, 'errors.no-server-errors')).toMatch(/^POST \/pets answered 500/);
  }, 600_000);
});

describe('the kit against a Ktor app written from the spec (Netty, kotlinx.serialization)', () => {
  it("fails it where Ktor's lenient JSON, kotlinx.serialization's Long reader and Kotlin's toLongOrNull break the spec, and nowhere else", async () => {
    const report = await runOn('Ktor');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Ktor?.fails);
    // Ktor's json() is kotlinx.serialization with isLenient: a string may go unquoted.
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /name a boolean \(true\) answered 201/,
    );
    // Its Long reader checks for overflow by the sign alone: 2^64 wraps around to 0.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId 2\^64 \(18446744073709551616\) answered 201 .*"categoryId\\":0,/,
    );
    // toLongOrNull reads any script's digits, as Long.parseLong does.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/[٠-٩]+ answered 200/);
  }, 600_000);
});

describe("the kit against a Helidon app written from the spec (Helidon SE's web server, JSON-B)", () => {
  it("fails it where Yasson's JSON-B, Helidon's media support and its mappers break the spec, and nowhere else", async () => {
    const report = await runOn('Helidon');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Helidon?.fails);
    // Yasson reads a scalar as a String's text, a number's integer part as a Long, and a one-element
    // array as its element; it stops after the first JSON value.
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /name a boolean \(true\) answered 201/,
    );
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a fraction \(1\.5\) answered 201/,
    );
    expect(message(report, 'createPet.body-not-object')).toMatch(
      /an array holding a NewPet .*answered 201/,
    );
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(/answered 201/);
    // Helidon has no reader for a media type it cannot match, nor for no body: both throw, a 500.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: application\/json ; charset="utf-8" answered 500/,
    );
    expect(message(report, 'createPet.other-media-types')).toMatch(/answered 500/);
    expect(message(report, 'createPet.empty-body')).toMatch(/an empty body answered 500/);
    // Its asLong mapper is Long.parseLong, which reads any script's digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/[٠-٩]+ answered 200/);
  }, 600_000);
});

describe('the kit against a Pekko HTTP app written from the spec (Scala, spray-json)', () => {
  it('fails it where authenticateOAuth2 takes the key from the query, and nowhere else; its LongNumber path matcher answers an id that is no number 404 (a should: 400 is advised)', async () => {
    const report = await runOn('Pekko HTTP');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS['Pekko HTTP']?.fails);
    // authenticateOAuth2 reads ?access_token= when Authorization is missing (RFC 6750 §2.3).
    expect(message(report, 'auth.listPets.key-in-query')).toMatch(
      /without Authorization, with the valid key itself in the query answered 200/,
    );
    expect(resultOf(report, 'getPet.malformed-id-rejected')).toMatchObject({
      level: 'should',
      outcome: 'advisory',
      message: expect.stringMatching(/^GET \/pets\/not-a-number answered 404, expected 400\n/),
    });
  }, 600_000);
});

describe('the kit against a Vert.x app written from the spec (vertx-web, Netty)', () => {
  it("fails it where JsonObject's getters and Vert.x's query map break the spec, and nowhere else", async () => {
    const report = await runOn('Vert.x');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS['Vert.x']?.fails);
    // getString gives any value's text; getLong takes any number's longValue().
    expect(message(report, 'createPet.invalid-name')).toMatch(/answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a fraction \(1\.5\) answered 201/,
    );
    // Query parameters live in a case-insensitive map; Long.parseLong reads any script's digits.
    expect(message(report, 'listPets.recased-limit')).toMatch(/LIMIT=1 returned 1 pet/);
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
  }, 600_000);
});

describe('the kit against a Scotty app written from the spec (Haskell, warp, aeson)', () => {
  it("fails it where Haskell's read of an integer breaks the spec, and nowhere else", async () => {
    const report = await runOn('Scotty');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Scotty?.fails);
    // Scotty reads a capture with readEither, and Haskell's Read takes an integer's literals: 0x1 is 1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
    // An Int read wraps at 2^64: 2^64 + N is pet N, whose answer names another id than asked.
    expect(message(report, 'errors.pet-fields')).toMatch(
      /GET \/pets\/1844674407370955\d+ answered 200: it is pet \d+$/m,
    );
    // A parameter it cannot read passes the request on to the next route: notFound's 404.
    expect(message(report, 'listPets.limit-out-of-range-rejected')).toMatch(
      /limit=abc answered 404/,
    );
  }, 600_000);
});

describe("the kit against a Go app generated from the contract's OpenAPI document (oapi-codegen, kin-openapi)", () => {
  it('passes it, kin-openapi reading one JSON value of a body (a should: 400 is advised)', async () => {
    const report = await runOn('oapi-codegen');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['oapi-codegen']?.fails,
    );
    // kin-openapi's validator reads the body with encoding/json's Decoder: the first JSON value,
    // which RFC 8259 §9 lets a parser do.
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /a second NewPet after the first answered 201/,
    );
  }, 600_000);
});

describe("the kit against a Connexion app driven by the contract's OpenAPI document (Python, uvicorn)", () => {
  it('fails it where Connexion breaks the spec the document describes, and nowhere else', async () => {
    const report = await runOn('Connexion');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Connexion?.fails);
    // It finds a body's validator by the media type as written: the handler gets bytes.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(/answered (415|500)/);
    // It tells a body from none by Content-Length.
    expect(message(report, 'createPet.request-shapes')).toMatch(/chunked answered 400/);
    // Its validator's UTF-8 decoding raises outside its error handling.
    expect(message(report, 'createPet.not-utf8')).toMatch(/answered 500/);
  }, 600_000);
});

describe('the kit against a Compojure app written from the spec (Clojure, Ring, Jetty 9.4, cheshire)', () => {
  it("fails it where Jetty 9.4, Ring's params, cheshire and parse-long break the spec, and nowhere else", async () => {
    const report = await runOn('Compojure');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Compojure?.fails);
    // Jetty 9.4 looks a connection's cached header fields up without regard to letter case.
    expect(message(report, 'auth.getPet.valid-key-after-other-case')).toMatch(
      /with the valid key, on a connection that had just carried it in the other letter case answered 401/,
    );
    expect(message(report, 'auth.getPet.key-case-changed')).toMatch(
      /on a connection that had just carried the valid key answered 200/,
    );
    // Ring gives a parameter given twice as a vector, which parse-long refuses: Jetty's 500.
    expect(message(report, 'listPets.repeated-parameter')).toMatch(/limit=3&limit=5 answered 500/);
    // Jetty's error handler answers in HTML when the client takes anything, as curl does.
    expect(message(report, 'errors.json-body')).toMatch(
      /answered 500: Content-Type is "text\/html"[\s\S]*-H 'Accept: \*\/\*'/,
    );
    // parse-long is Long/valueOf, which reads any script's digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/\S+ answered 200/);
  }, 600_000);
});

describe('the kit against an Ulfius app written from the spec (C, libmicrohttpd, Jansson)', () => {
  it("fails it where Ulfius' body and URL handling and C's strtoll break the spec, and nowhere else", async () => {
    const report = await runOn('Ulfius');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Ulfius?.fails);
    // ulfius_get_json_body_request compares the start of Content-Type, as written, with application/json.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 400, expected 201/,
    );
    // A multipart body whose Content-Type names no boundary gets no answer: the connection closes.
    expect(message(report, 'createPet.other-media-types')).toMatch(/failed: other side closed/);
    // strtoll skips the white space before the digits: " 8" is pet 8.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/%20\d+ answered 200/);
  }, 600_000);
});

describe('the kit against a cohttp app written from the spec (OCaml, Lwt, Yojson)', () => {
  it("fails it where cohttp's headers, Yojson and OCaml's integers break the spec, and nowhere else", async () => {
    const report = await runOn('cohttp');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.cohttp?.fails);
    // Header.get_media_type gives the media type as written, which the app compares as a string.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 415, expected 201/,
    );
    // Yojson keeps a string's bytes as they come, UTF-8 or not, and writes them back so.
    expect(message(report, 'errors.strict-json')).toMatch(/answered 201: the body is not UTF-8/);
    // int_of_string_opt reads OCaml's literals: 0x1, 0o1, 0b1, 1_0, +1.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
  }, 600_000);
});

describe('the kit against a cpp-httplib app written from the spec (C++, nlohmann::json)', () => {
  it("fails it where nlohmann::json's integers and exceptions and std::stoll break the spec, and nowhere else", async () => {
    const report = await runOn('cpp-httplib');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS['cpp-httplib']?.fails);
    // nlohmann::json reads 10^19 as an unsigned integer, and get<long long> wraps it.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /10\^19 .* answered 201 .*-8446744073709551616/,
    );
    // Its parse error quotes the bytes read, no UTF-8 here, and dump() throws on them: a 500.
    expect(message(report, 'createPet.not-utf8')).toMatch(/answered 500/);
    // A number beyond a double is an out_of_range exception, not the parse_error the app catches.
    expect(message(report, 'errors.no-server-errors')).toMatch(/"categoryId":1e400/);
    // std::stoll skips white space before the digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/%20\d+ answered 200/);
  }, 600_000);
});

describe('the kit against a MochiWeb app written from the spec (Erlang, mochijson2)', () => {
  it("fails it where Erlang's integers, mochijson2 and MochiWeb's requests break the spec, and nowhere else", async () => {
    const report = await runOn('MochiWeb');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.MochiWeb?.fails);
    // Erlang's integers have no bound: 2^64 is an integer, stored and shown.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /2\^64 \(18446744073709551616\) answered 201/,
    );
    // mochijson2 reads an encoded surrogate into the name, and its encoder fails on it.
    expect(message(report, 'createPet.not-utf8')).toMatch(/\(ED A0 80\) .* answered 500/);
    // Its 100 Continue says Connection: close, and the 201 follows on that connection.
    expect(message(report, 'createPet.request-shapes')).toMatch(/Data after `Connection: close`/);
  }, 600_000);
});

describe('the kit against an HttpListener app written from the spec (C# on Mono, Json.NET)', () => {
  it("fails it where Json.NET's conversions and HttpListener break the spec, and nowhere else", async () => {
    const report = await runOn('HttpListener with Json.NET');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['HttpListener with Json.NET']?.fails,
    );
    // Json.NET converts what it reads to the property's type: true is the string "True", and 1.
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /boolean \(true\) answered 201 .*True/,
    );
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /boolean \(true\) answered 201/,
    );
    // It matches members to properties in any letter case.
    expect(message(report, 'createPet.missing-name-other-case')).toMatch(/Name but no name/);
    // HttpListener reads a body without a charset in the default encoding: ASCII without LANG.
    expect(message(report, 'createPet.non-ascii-name-kept')).toMatch(/name is "cf[a-z]+\?\?and/);
    // So does a body that comes in pieces: the kit says the name sent whole fares no better.
    expect(message(report, 'createPet.body-in-pieces')).toMatch(
      /name is "cf[a-z]+\?\?and.*\(sent whole, the same name comes back altered too\)/,
    );
    // Its QueryString matches names in any letter case.
    expect(message(report, 'listPets.recased-limit')).toMatch(/LIMIT=1 returned 1 pet/);
    // long.TryParse takes white space around the digits.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/\d+%20 answered 200/);
    // HttpListener answers the first of the reads pipelined in one write, and never the next.
    expect(resultOf(report, 'listPets.pipelined')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^GET \/pets\?limit=1 without a key, pipelined with 4 other reads on one connection: no answer within 10000 ms\n/,
      ),
    });
  }, 600_000);
});

describe('the kit against a Nim app written from the spec (asynchttpserver, std/json)', () => {
  it("fails it where Nim's standard library breaks the spec, and nowhere else", async () => {
    const report = await runOn('Nim');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Nim?.fails);
    // std/json keeps a string's bytes as they come, and reads \uDC00 alone as the bytes ED B0 80.
    expect(message(report, 'errors.strict-json')).toMatch(/answered 201: the body is not UTF-8/);
    // parseBiggestInt reads digits split by an underscore.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
  }, 600_000);
});

describe('the kit against a Hunchentoot app written from the spec (Common Lisp on SBCL, yason)', () => {
  it('fails it where yason breaks the spec, and where SBCL dies of nested arrays, then for want of a server', async () => {
    const { fails, diesAt = '' } = APPS.Hunchentoot as FrameworkApp;
    const report = await runOn('Hunchentoot');
    const runFailed = failed(report);
    expect(
      runFailed.filter((id) => fails.includes(id)).sort(),
      notPassed(report).join('\n'),
    ).toEqual(fails);
    // Every other failure is a check the run started after the one that took the app down, for a
    // request nothing listened to any more.
    const order = report.results.map((r) => r.id);
    for (const id of runFailed.filter((id) => !fails.includes(id))) {
      expect(order.indexOf(id), id).toBeGreaterThan(order.indexOf(diesAt));
      expect(message(report, id), id).toMatch(/ECONNREFUSED/);
    }
    // yason's parse reads the first JSON value and leaves what follows it.
    expect(resultOf(report, 'createPet.trailing-content').outcome).toBe('advisory');
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /with a second NewPet after the first answered 201/,
    );
    // Its encoder escapes no control character but \b, \f, \n, \r and \t.
    expect(message(report, 'createPet.string-boundaries')).toMatch(
      /holding control characters answered 201: the body is not JSON/,
    );
    // Arrays nested 10,001 deep exhaust the worker thread's stack: Hunchentoot closes the
    // connection, and at the second such body SBCL dies.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/the body took the server down/);
  }, 600_000);
});

describe('the kit against a lua-http app written from the spec (Lua 5.2, lua-cjson)', () => {
  it("fails it where lua-cjson and Lua's numbers break the spec, and nowhere else", async () => {
    const report = await runOn('lua-http');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS['lua-http']?.fails);
    // lua-cjson writes an empty table as an object, and numbers with 14 significant digits.
    expect(message(report, 'errors.pet-fields')).toMatch(
      /answered 200: the body is not a JSON array/,
    );
    expect(message(report, 'createPet.integer-boundaries')).toMatch(
      /answered categoryId 9\.0+7199/,
    );
    // Lua 5.2's numbers are doubles: 2^64 passes the app's integer test.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(/2\^64 .* answered 201/);
    // tonumber reads Lua's numerals.
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0x1 answered 200/);
  }, 600_000);
});

describe('the kit against a plumber app written from the spec (R, httpuv, jsonlite)', () => {
  it("fails it where R's numbers and vectors, jsonlite and plumber's parsers break the spec, and nowhere else", async () => {
    const report = await runOn('plumber');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.plumber?.fails);
    // jsonlite's simplifyVector: ["abc"] is the character vector "abc", as "abc" is.
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /name an array \(\["abc"\]\) answered 201/,
    );
    // R's numbers are doubles, and jsonlite writes 15 significant digits.
    expect(message(report, 'createPet.category-id-exact')).toMatch(
      /categoryId 9007199254740991 answered categoryId 9007199254740990/,
    );
    // A body its parser cannot read is an error before the handler runs: plumber answers 500.
    expect(message(report, 'createPet.malformed-json')).toMatch(/answered 500, expected 400/);
    // A parameter given twice is a vector of two, whose comparison with 1 is an error in R.
    expect(message(report, 'listPets.repeated-parameter')).toMatch(/limit=3&limit=5 answered 500/);
    // <petId:int> is R's 32-bit integer: a larger id is NA, and comparing with NA is an error.
    expect(message(report, 'getPet.not-found')).toMatch(
      /9007199254740991 \(no such pet\) answered 500/,
    );
    // httpuv writes a body after its 405 to HEAD: the next answer on the connection begins with it.
    expect(resultOf(report, 'listPets.head')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^HEAD \/pets\?limit=1 with the key answered 405, and what followed on its connection was read as the GET's answer: not an HTTP answer: "\{\\"error\\"/,
      ),
    });
  }, 600_000);
});

describe('the kit against a Sinatra app written from the spec (Rack, Puma)', () => {
  it("fails it where Ruby's to_i and JSON break the spec, and nowhere else", async () => {
    const report = await runOn('Sinatra');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Sinatra?.fails);
    // Rack reads limit[]=1 as ["1"], which has no to_i: a 500; "1.5".to_i is 1.
    expect(message(report, 'listPets.bracketed-limit')).toMatch(/limit%5B%5D=1 answered 500/);
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/1\.5 answered 200/);
    // JSON.parse keeps bytes that are no UTF-8; JSON.generate refuses them on the way out.
    expect(message(report, 'createPet.not-utf8')).toMatch(/\(C3 28\) in the name answered 500/);
  }, 600_000);
});

describe('the kit against a Grape app written from the spec (Rack, Puma)', () => {
  it("fails it where Grape's params, coercions, JSON parser and formatter break the spec, and nowhere else", async () => {
    const report = await runOn('Grape');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Grape?.fails);
    // params merges the query string into the body's members, as Rack's params do.
    expect(message(report, 'createPet.missing-name-in-query')).toMatch(/answered 201/);
    // A String param takes null as absent but present; an Integer one is Integer(), which cuts
    // 1.5 to 1 and reads "0_1" as 1.
    expect(message(report, 'createPet.invalid-name')).toMatch(/name null answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId a fraction \(1\.5\) answered 201/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/0_1 answered 200/);
    // A body without Content-Type is thrown out as 415 before rescue_from, in Grape's own body.
    expect(message(report, 'createPet.other-media-types')).toMatch(
      /no Content-Type answered 415: not a valid Error body/,
    );
    // JSON.load has no depth limit: SystemStackError is no StandardError, and Puma answers 500.
    expect(message(report, 'createPet.deep-nesting')).toMatch(/nested 10001 deep .* answered 500/);
    // Its values: validator's blank? raises ArgumentError on a value that is no UTF-8: a 500.
    expect(message(report, 'listPets.limit-out-of-range')).toMatch(/limit=10%FF answered 500/);
  }, 600_000);
});

describe('the kit against a Rails app written from the spec (API mode, ActiveModel)', () => {
  it("fails it where Rails' params and ActiveModel's validations break the spec, and nowhere else", async () => {
    const report = await runOn('Rails');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Rails?.fails);
    // params holds the query string beside the body; presence and numericality take any type.
    expect(message(report, 'createPet.missing-name-in-query')).toMatch(/answered 201/);
    expect(message(report, 'createPet.invalid-name')).toMatch(
      /name a boolean \(true\) answered 201/,
    );
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId an integer in a string \("\d+"\) answered 201/,
    );
    // permit() drops a member that is no scalar without a word: the pet has no status.
    expect(message(report, 'createPet.invalid-status')).toMatch(
      /status an array \(\[\]\) answered 201/,
    );
    // authenticate_with_http_token takes the scheme Token as well as Bearer.
    expect(message(report, 'auth.listPets.wrong-scheme')).toMatch(
      /^GET \/pets\?limit=1 with "Token <valid key>" answered 200/,
    );
    // Rack reads limit[]=1 as ["1"], which has no to_i; "1.5".to_i is 1.
    expect(message(report, 'listPets.bracketed-limit')).toMatch(/limit%5B%5D=1 answered 500/);
    expect(message(report, 'getPet.path-boundaries')).toMatch(/GET \/pets\/1\.5 answered 200/);
  }, 600_000);
});

describe('the kit against a Mojolicious app written from the spec (Perl)', () => {
  it("fails it where Perl's scalars and Mojolicious' _method break the spec, and nowhere else", async () => {
    const report = await runOn('Mojolicious');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Mojolicious?.fails);
    // A Perl scalar is a string and a number at once: ref() tells neither 7 from "7".
    expect(message(report, 'createPet.invalid-name')).toMatch(/name a number \(7\) answered 201/);
    expect(message(report, 'createPet.invalid-category-id')).toMatch(
      /categoryId an integer in a string \("\d+"\) answered 201/,
    );
    // Mojolicious' router takes ?_method=GET on a POST: a list, answered 200.
    expect(message(report, 'createPet.method-override')).toMatch(/\?_method=GET answered 200/);
    // Cpanel::JSON::XS reads the encoded surrogate ED A0 80 as U+D800 and writes it back so.
    expect(message(report, 'errors.strict-json')).toMatch(
      /POST \/pets answered 201: the body is not UTF-8/,
    );
  }, 600_000);
});

describe('the kit against a Dancer2 app written from the spec (Perl, on Starman)', () => {
  it("fails it where Perl's scalars and Cpanel::JSON::XS break the spec, and nowhere else", async () => {
    const report = await runOn('Dancer2 on Starman');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['Dancer2 on Starman']?.fails,
    );
    // A Perl scalar is a string and a number at once: ref() tells neither 7 from "7".
    expect(message(report, 'createPet.invalid-name')).toMatch(/name a number \(7\) answered 201/);
    // Cpanel::JSON::XS reads the encoded surrogate ED A0 80 as U+D800 and writes it back so.
    expect(message(report, 'errors.strict-json')).toMatch(
      /POST \/pets answered 201: the body is not UTF-8/,
    );
  }, 600_000);
});

describe('the kit against a Symfony app written from the spec (PHP, FrameworkBundle)', () => {
  it("fails it where Symfony's method override and PHP's int parameters break the spec, and nowhere else", async () => {
    const report = await runOn('Symfony');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Symfony?.fails);
    // Request::getMethod() takes X-HTTP-Method-Override on a POST: POST /pets becomes a list.
    expect(message(report, 'createPet.method-override')).toMatch(
      /X-HTTP-Method-Override: GET answered 200/,
    );
    // The \d+ requirement lets any digits through, and an int parameter refuses a numeric string
    // beyond PHP_INT_MAX with a TypeError, no HTTP exception: a 500.
    expect(message(report, 'getPet.path-boundaries')).toMatch(
      /GET \/pets\/9223372036854775808 answered 500/,
    );
  }, 600_000);
});

describe('the kit against a Lumen app written from the spec (PHP, Laravel validation)', () => {
  it("fails it where Laravel's requests, validation and bearerToken break the spec, and nowhere else", async () => {
    const report = await runOn('Lumen');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Lumen?.fails);
    // A failed validation is 422, never the spec's 400.
    expect(message(report, 'createPet.missing-name')).toMatch(/answered 422, expected 400/);
    // bearerToken() takes whatever follows the last "Bearer ": "XBearer <key>" carries the key.
    expect(message(report, 'auth.listPets.scheme-prefixed')).toMatch(
      /with "XBearer <valid key>" answered 200/,
    );
    // $request->input() reads the query string too, and "required" takes "" as missing.
    expect(message(report, 'createPet.missing-name-in-query')).toMatch(/answered 201/);
    expect(message(report, 'createPet.string-boundaries')).toMatch(/an empty name answered 422/);
    // isJson() looks for "/json" as written; Symfony takes X-HTTP-Method-Override on a POST.
    expect(message(report, 'createPet.media-type-spellings')).toMatch(
      /Content-Type: Application\/JSON answered 422/,
    );
    expect(message(report, 'createPet.method-override')).toMatch(
      /X-HTTP-Method-Override: GET answered 200/,
    );
  }, 600_000);
});

describe('the kit against the Lumen app on nginx and PHP-FPM', () => {
  it('fails what Lumen fails on PHP’s own server, and what nginx’s defaults add', async () => {
    const report = await runOn('Lumen on nginx and PHP-FPM');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(
      APPS['Lumen on nginx and PHP-FPM']?.fails,
    );
    // nginx's client_max_body_size is 1 MiB: it answers a larger body with its own HTML page.
    expect(message(report, 'createPet.large-body')).toMatch(
      /padded to 2097152 bytes .* answered 413: Content-Type is "text\/html"/,
    );
  }, 600_000);
});
