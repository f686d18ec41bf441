// The kit against real web frameworks rather than fakes of them: the same Express app, written from
// the spec with Express's defaults, on Express 4 and on Express 5, a Koa app, a Fastify app, a Hono
// app (with Zod, on @hono/node-server and on Bun's own server), a hapi app (with Joi), a NestJS app
// (compiled by tsc), a Flask app, an aiohttp app, a Tornado app, a FastAPI app and a Django REST
// framework app (Python, each pinned in its frameworks/*/requirements.txt), a Go app (the standard
// library alone, frameworks/go), a Gin app, an Echo app and a Fiber app (on fasthttp; each pinned
// in its frameworks/*/go.mod), an axum app and an actix-web app (Rust, each pinned in its
// frameworks/*/Cargo.lock), a Spring Boot app, a Javalin app and a Vert.x app (Java, each pinned in
// its frameworks/*/pom.xml), a Sinatra app and a Rails app (Ruby), a Mojolicious app (Perl) and a
// Lumen app (PHP), on Debian's packages, written the same way. What the kit fails is each
// framework's doing, named below; no false alarm may come from any. Run again through the proxy,
// the kit fails the same checks, and the traffic judge, holding the kit's traffic as anyone's,
// fails what it can see of them and nothing else.

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PYTHON_VENV, runProcess, startLogged } from '@animal-store/test-support';
import express4 from 'express4';
import express5 from 'express5';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConformanceReport, runConformance, startProxy, TrafficJudge } from '../src/index.js';
import { expressPetApp } from './support/express-pet-app.js';
import { fastifyPetApp } from './support/fastify-pet-app.js';
import { hapiPetApp } from './support/hapi-pet-app.js';
import { honoPetApp, serveHono } from './support/hono-pet-app.js';
import { koaPetApp } from './support/koa-pet-app.js';
import { notPassed } from './support/run-kit.js';

const API_KEY = 'framework-app-key-0123456789';

/** An app listening on 127.0.0.1: its base URL, and how to stop it. */
interface RunningApp {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** A node:http server listening on 127.0.0.1 as a running app. */
function running(server: Server): RunningApp {
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Serves `handler` with node:http on 127.0.0.1, once it listens. */
async function serveOnNode(handler: RequestListener): Promise<RunningApp> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return running(server);
}

/** Starts the Express app on `express`. */
const startExpress = (express: typeof express4 | typeof express5) =>
  serveOnNode(expressPetApp(express, API_KEY));

const startKoa = () => serveOnNode(koaPetApp(API_KEY).callback());

async function startFastify(): Promise<RunningApp> {
  const app = fastifyPetApp(API_KEY);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl: `${address}/v1`, stop: () => app.close() };
}

const startHono = async () => running(await serveHono(honoPetApp(API_KEY)));

/**
 * Bun: the one the repository's root pins (its optional dependency @oven/bun-linux-<arch>, from
 * the npm registry), else, on a platform it has none for, the `bun` on PATH.
 */
function bunCommand(): string {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const root = createRequire(new URL('../../../package.json', import.meta.url));
  try {
    return join(dirname(root.resolve(`@oven/bun-linux-${arch}/package.json`)), 'bin', 'bun');
  } catch {
    return 'bun';
  }
}

async function startHapi(): Promise<RunningApp> {
  const server = await hapiPetApp(API_KEY);
  return { baseUrl: `${server.info.uri}/v1`, stop: () => server.stop() };
}

/** Where each app's folder is: frameworks/NAME. */
const FRAMEWORKS = fileURLToPath(new URL('./frameworks/', import.meta.url));

const built = await mkdtemp(join(tmpdir(), 'conformance-framework-apps-'));
afterAll(() => rm(built, { recursive: true, force: true }));

/** Each build once per run, however many tests start its app. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/** Builds the Go app in frameworks/NAME with the `go` on PATH (its build cache keeps it quick). */
function goApp(name: 'go' | 'gin' | 'fiber' | 'echo'): () => Promise<string> {
  return once(async () => {
    const dir = join(FRAMEWORKS, name);
    const binary = join(built, `${name}-petapp`);
    const go = await runProcess(
      'go',
      ['build', '-trimpath', '-buildvcs=false', '-o', binary, '.'],
      {
        cwd: dir,
        env: { ...process.env, GOTOOLCHAIN: 'local' },
      },
    );
    if (go.exitCode !== 0) throw new Error(`go build of ${dir} failed:\n${go.stderr}`);
    return binary;
  });
}
const buildGoApp = goApp('go');
const buildGinApp = goApp('gin');
const buildFiberApp = goApp('fiber');
const buildEchoApp = goApp('echo');

// Kept between runs, as Go's build cache is: the pinned crates are compiled once.
const CARGO_TARGET = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'animal-store',
  'cargo-target-framework-apps',
);

/**
 * Builds the Rust app in frameworks/NAME with the `cargo` on PATH, from the crates its Cargo.lock
 * pins.
 */
function cargoApp(name: 'axum' | 'actix'): () => Promise<string> {
  return once(async () => {
    const dir = join(FRAMEWORKS, name);
    // A target folder of its own: each app's binary is named petapp.
    const target = join(CARGO_TARGET, name);
    const cargo = await runProcess('cargo', ['build', '--locked', '--quiet'], {
      cwd: dir,
      env: { ...process.env, CARGO_TARGET_DIR: target },
    });
    if (cargo.exitCode !== 0) throw new Error(`cargo build of ${dir} failed:\n${cargo.stderr}`);
    return join(target, 'debug', 'petapp');
  });
}
const buildAxumApp = cargoApp('axum');
const buildActixApp = cargoApp('actix');

/** Builds the Maven app in frameworks/NAME with the `mvn` on PATH (frameworks/maven-app.sh). */
function mavenApp(name: 'spring' | 'javalin' | 'vertx'): () => Promise<string> {
  return once(async () => {
    const out = join(built, name);
    const maven = await runProcess('bash', [join(FRAMEWORKS, 'maven-app.sh'), name, out]);
    if (maven.exitCode !== 0) throw new Error(`the ${name} app's build failed:\n${maven.stderr}`);
    return join(out, 'app.jar');
  });
}
const buildSpringApp = mavenApp('spring');
const buildJavalinApp = mavenApp('javalin');
const buildVertxApp = mavenApp('vertx');

/**
 * Compiles the NestJS app with the workspace's tsc (esbuild, which vitest uses, emits no decorator
 * metadata, and Nest reads its DTOs' types from it); gives its main.js.
 */
const buildNestApp = once(async () => {
  const out = join(built, 'nest');
  await mkdir(out);
  // The compiled app is an ES module that finds its packages as it would in this package.
  await symlink(
    fileURLToPath(new URL('../node_modules', import.meta.url)),
    join(out, 'node_modules'),
  );
  await writeFile(join(out, 'package.json'), '{"type":"module"}');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = join(FRAMEWORKS, 'nest', 'tsconfig.json');
  const run = await runProcess(process.execPath, [tsc, '-p', project, '--outDir', out]);
  if (run.exitCode !== 0) throw new Error(`tsc of the NestJS app failed:\n${run.stdout}`);
  return join(out, 'main.js');
});

type PythonApp = 'flask' | 'fastapi' | 'django' | 'aiohttp' | 'tornado';

/** The python of frameworks/NAME's pinned venv (made on first use). */
async function venvPython(name: PythonApp): Promise<string> {
  const venv = await runProcess('bash', [PYTHON_VENV, join(FRAMEWORKS, name), 'python']);
  if (venv.exitCode !== 0) throw new Error(`no ${name} venv:\n${venv.stderr}`);
  return venv.stdout.trim();
}

/**
 * Starts a server that `command` runs and that prints "listening on PORT", in this run's temporary
 * folder: what a framework writes beside it (Vert.x's upload folder) stays out of the repository.
 */
async function startProcess(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<RunningApp> {
  const app = await startLogged(command, args, {
    env: { API_KEY, PATH: process.env.PATH ?? '', ...env },
    cwd: built,
    // The app stops when its stdin closes: it never outlives this process.
    stdin: 'pipe',
    ready: /listening on (\d+)/,
  });
  return { baseUrl: `http://127.0.0.1:${app.match[1]}/v1`, stop: () => app.stop() };
}

/**
 * Starts a Maven app's jar. The JVM compiles with C1 alone and collects with one thread: an app
 * that lives for one or two kit runs would otherwise spend most of its CPU time in C2's compiler
 * and the parallel collector's threads, and neither changes what it answers.
 */
const javaApp = async (jar: Promise<string>) =>
  startProcess('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-jar', await jar]);

const pythonApp = async (name: PythonApp) =>
  startProcess(await venvPython(name), [join(FRAMEWORKS, name, 'app.py')]);

let lumenStarts = 0;

/** Starts the Lumen app on PHP's built-in server, with a file of its own to keep pets in. */
const startLumen = () =>
  startProcess('sh', [join(FRAMEWORKS, 'lumen', 'serve.sh')], {
    PETS_FILE: join(built, `lumen-pets-${++lumenStarts}.json`),
  });

/**
 * What Go's encoding/json makes the kit fail, and the judge, under any Go framework: it matches
 * members to fields in any letter case, the last one winning.
 */
const ENCODING_JSON = {
  fails: [
    'createPet.missing-category-id-other-case',
    'createPet.missing-name-other-case',
    'createPet.recased-members',
    'errors.created-pets-agree',
  ],
  inTraffic: [
    'createPet.missing-category-id-other-case',
    'createPet.missing-name-other-case',
    'errors.created-pets-agree',
  ],
};

/** And its Decoder (which net/http apps read bodies with) reads one value and stops there. */
const DECODER = 'createPet.trailing-content';

/** The Authorization shapes carrying no valid key that Hono's bearerAuth answers with 400. */
const MALFORMED_CREDENTIALS = ['empty-token', 'scheme-prefixed', 'word-after-key', 'wrong-scheme'];

/** The checks whose 400 Laravel's validation answers with 422 (Unprocessable Content). */
const LARAVEL_422 = [
  'createPet.body-not-object',
  'createPet.deep-nesting',
  'createPet.empty-body',
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'createPet.invalid-status',
  'createPet.malformed-json',
  'createPet.missing-category-id',
  'createPet.missing-category-id-other-case',
  'createPet.missing-name',
  'createPet.missing-name-other-case',
  'createPet.trailing-content',
];

/** What Hono's bearerAuth and z.coerce make the kit and the judge fail, on any runtime. */
const HONO = {
  fails: [
    ...['createPet', 'getPet', 'listPets'].flatMap((op) =>
      MALFORMED_CREDENTIALS.map((shape) => `auth.${op}.${shape}`),
    ),
    'auth.every-read-shape',
    'auth.every-write-shape',
    'getPet.path-boundaries',
  ].sort(),
  // The judge knows no key: it sees the 400s to the reads, which have nothing else wrong.
  inTraffic: [
    ...['getPet', 'listPets'].flatMap((op) =>
      MALFORMED_CREDENTIALS.map((shape) => `auth.${op}.${shape}`),
    ),
    'getPet.path-boundaries',
  ].sort(),
};

/**
 * Each app, the checks the kit fails on it (its framework's doing, named below), and those the
 * traffic judge fails on the kit's traffic to it through the proxy, each sorted. The judge sees
 * less than the run: no rule of its own relates a bracketed limit, recased members or a 500.
 */
const APPS: Readonly<
  Record<
    string,
    {
      readonly start: () => Promise<RunningApp>;
      readonly fails: readonly string[];
      readonly inTraffic: readonly string[];
    }
  >
> = {
  'Express 5': { start: () => startExpress(express5), fails: [], inTraffic: [] },
  'Express 4': {
    start: () => startExpress(express4),
    fails: ['listPets.bracketed-limit'],
    inTraffic: [],
  },
  Koa: { start: startKoa, fails: [], inTraffic: [] },
  Fastify: {
    start: startFastify,
    fails: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'getPet.path-boundaries',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'getPet.path-boundaries',
    ],
  },
  Hono: { start: startHono, ...HONO },
  'Hono on Bun': {
    start: () => startProcess(bunCommand(), [join(FRAMEWORKS, 'bun', 'main.ts')]),
    fails: HONO.fails,
    inTraffic: HONO.inTraffic,
  },
  hapi: {
    start: startHapi,
    fails: ['createPet.invalid-category-id', 'getPet.path-boundaries'],
    inTraffic: ['createPet.invalid-category-id', 'getPet.path-boundaries'],
  },
  NestJS: {
    start: async () => startProcess(process.execPath, [await buildNestApp()]),
    fails: [
      'createPet.deep-nesting',
      'errors.error-schema',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
    ],
    inTraffic: [
      'errors.error-schema',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
    ],
  },
  Go: {
    start: async () => startProcess(await buildGoApp(), []),
    fails: [...ENCODING_JSON.fails, DECODER].sort(),
    inTraffic: [...ENCODING_JSON.inTraffic, DECODER].sort(),
  },
  Gin: {
    start: async () => startProcess(await buildGinApp(), []),
    fails: [...ENCODING_JSON.fails, DECODER, 'getPet.path-boundaries'].sort(),
    inTraffic: [...ENCODING_JSON.inTraffic, DECODER, 'getPet.path-boundaries'].sort(),
  },
  Fiber: {
    start: async () => startProcess(await buildFiberApp(), []),
    fails: [...ENCODING_JSON.fails, 'listPets.bracketed-limit', 'listPets.recased-limit'].sort(),
    // Fiber reads a body with json.Unmarshal, which refuses what follows the value.
    inTraffic: ENCODING_JSON.inTraffic,
  },
  Echo: {
    start: async () => startProcess(await buildEchoApp(), []),
    fails: [
      ...ENCODING_JSON.fails,
      'createPet.media-type-spellings',
      'listPets.recased-limit',
    ].sort(),
    // Its binder answers another spelling of application/json 415, which the app answers 400,
    // as it does every error of c.Bind: the judge cannot tell that 400 from a body's fault.
    inTraffic: ENCODING_JSON.inTraffic,
  },
  Flask: {
    start: () => pythonApp('flask'),
    fails: ['createPet.deep-nesting', 'errors.no-server-errors', 'getPet.path-boundaries'],
    inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
  },
  aiohttp: {
    start: () => pythonApp('aiohttp'),
    fails: ['createPet.deep-nesting', 'errors.no-server-errors', 'getPet.path-boundaries'],
    inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
  },
  Tornado: {
    start: () => pythonApp('tornado'),
    fails: ['createPet.deep-nesting', 'errors.no-server-errors'],
    inTraffic: ['errors.no-server-errors'],
  },
  FastAPI: {
    start: () => pythonApp('fastapi'),
    fails: [
      'createPet.invalid-category-id',
      'createPet.not-utf8',
      'errors.json-body',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'errors.json-body',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
    ],
  },
  'Django REST framework': {
    start: () => pythonApp('django'),
    fails: [
      'createPet.deep-nesting',
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.request-shapes',
      'createPet.string-boundaries',
      'errors.created-pets-agree',
      'errors.no-server-errors',
      'errors.pet-fields',
      'listPets.request-shapes',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'errors.created-pets-agree',
      'errors.no-server-errors',
      'errors.pet-fields',
    ],
  },
  axum: {
    start: async () => startProcess(await buildAxumApp(), []),
    fails: ['createPet.media-type-spellings'],
    inTraffic: ['createPet.media-type-spellings'],
  },
  'actix-web': {
    start: async () => startProcess(await buildActixApp(), []),
    fails: ['createPet.media-type-spellings'],
    // actix answers the spelling 400, which a body's own fault may cause too: only a 415 is judged.
    inTraffic: [],
  },
  Sinatra: {
    start: () => startProcess('ruby', [join(FRAMEWORKS, 'sinatra', 'app.rb')]),
    fails: [
      'createPet.not-utf8',
      'errors.no-server-errors',
      'getPet.path-boundaries',
      'listPets.bracketed-limit',
    ],
    inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
  },
  Rails: {
    start: () => startProcess('ruby', [join(FRAMEWORKS, 'rails', 'app.rb')]),
    fails: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'createPet.missing-category-id-in-query',
      'createPet.missing-name-in-query',
      'createPet.other-media-types',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
      'listPets.bracketed-limit',
      'listPets.status-default-limit',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'createPet.missing-category-id-in-query',
      'createPet.missing-name-in-query',
      'errors.no-server-errors',
      'errors.pet-fields',
      'getPet.path-boundaries',
    ],
  },
  Mojolicious: {
    start: () => startProcess('perl', [join(FRAMEWORKS, 'mojolicious', 'app.pl')]),
    fails: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.method-override',
      'errors.pet-fields',
      'errors.success-status',
      'listPets.status-default-limit',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'errors.pet-fields',
      'errors.success-status',
    ],
  },
  Lumen: {
    start: startLumen,
    fails: [
      ...['createPet', 'getPet', 'listPets'].map((op) => `auth.${op}.scheme-prefixed`),
      ...LARAVEL_422,
      'createPet.media-type-spellings',
      'createPet.method-override',
      'createPet.missing-category-id-in-query',
      'createPet.missing-name-in-query',
      'createPet.other-media-types',
      'createPet.string-boundaries',
      'errors.pet-fields',
      'errors.success-status',
      'listPets.status-default-limit',
    ].sort(),
    // To the judge, a 422 to a JSON object may have a cause other than the body's fault; one to
    // a body that is no object may not, and nor may a success to a body without name.
    inTraffic: [
      'createPet.body-not-object',
      'createPet.empty-body',
      'createPet.malformed-json',
      'createPet.missing-category-id-in-query',
      'createPet.missing-name-in-query',
      'createPet.trailing-content',
      'errors.pet-fields',
      'errors.success-status',
    ],
  },
  Javalin: {
    start: () => javaApp(buildJavalinApp()),
    fails: [
      'auth.createPet.key-case-changed',
      'auth.getPet.key-case-changed',
      'auth.listPets.key-case-changed',
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'createPet.method-override',
      'createPet.trailing-content',
      'errors.created-pets-agree',
      'errors.pet-fields',
      'errors.success-status',
      'getPet.path-boundaries',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'createPet.trailing-content',
      'errors.created-pets-agree',
      'errors.pet-fields',
      'errors.success-status',
      'getPet.path-boundaries',
    ],
  },
  'Vert.x': {
    start: () => javaApp(buildVertxApp()),
    fails: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'errors.created-pets-agree',
      'getPet.path-boundaries',
      'listPets.recased-limit',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'errors.created-pets-agree',
      'getPet.path-boundaries',
    ],
  },
  'Spring Boot': {
    start: () => javaApp(buildSpringApp()),
    fails: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'errors.created-pets-agree',
      'getPet.path-boundaries',
      'listPets.bracketed-limit',
    ],
    inTraffic: [
      'createPet.invalid-category-id',
      'createPet.invalid-name',
      'createPet.invalid-status',
      'errors.created-pets-agree',
      'getPet.path-boundaries',
    ],
  },
};

/** Starts the app named, runs the kit against it, stops it. */
async function runOn(name: keyof typeof APPS): Promise<ConformanceReport> {
  const app = await (APPS[name] as (typeof APPS)[string]).start();
  try {
    return await runConformance({ baseUrl: app.baseUrl, apiKey: API_KEY });
  } finally {
    await app.stop();
  }
}

const failed = (report: { results: readonly { id: string; outcome: string }[] }) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

const message = (report: ConformanceReport, id: string) =>
  report.results.find((r) => r.id === id)?.message;

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
  it("passes it, @koa/bodyparser's 1 MiB limit answering a larger NewPet 413 (§8 sets no size)", async () => {
    const report = await runOn('Koa');
    expect(report.verdict, notPassed(report).join('\n')).toBe('pass');
    expect(message(report, 'createPet.large-body')).toMatch(/answered 413$/);
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
      /Content-Type: Application\/JSON answered 400, expected 201\nserver said: .*Unsupported Media Type/,
    );
    // And it matches query names in any letter case, as encoding/json does members.
    expect(message(report, 'listPets.recased-limit')).toMatch(/LIMIT=1 returned 1 pet/);
    expect(message(report, 'createPet.missing-name-other-case')).toMatch(
      /with Name but no name answered 201/,
    );
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
  }, 600_000);
});

describe('the kit against a Javalin app written from the spec (Jetty, Jackson)', () => {
  it("fails it where Jetty's header cache, Jackson's coercions and Javalin's readers break the spec, and nowhere else", async () => {
    const report = await runOn('Javalin');
    expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(APPS.Javalin?.fails);
    // Jetty matches a header value to the connection's last one in any letter case: right after
    // the valid key, the valid key case-swapped is the valid key.
    expect(message(report, 'auth.listPets.key-case-changed')).toMatch(
      /on a connection that had just carried the valid key answered 200 .*, expected 401/,
    );
    // Jackson reads 1.5 as 1, true as "true", 0 as the enum's first value; one value of many.
    expect(message(report, 'createPet.invalid-category-id')).toMatch(/answered 201/);
    expect(message(report, 'createPet.trailing-content')).toMatch(
      /a second NewPet after the first answered 201/,
    );
    // Context.method() takes X-HTTP-Method-Override; Long.parseLong takes any script's digits.
    expect(message(report, 'createPet.method-override')).toMatch(
      /X-HTTP-Method-Override: GET answered 200/,
    );
    expect(message(report, 'getPet.path-boundaries')).toMatch(/answered 200/);
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

describe('the kit through the proxy, in front of each app', () => {
  it.each(
    Object.keys(APPS),
  )('fails the same checks on %s, and the traffic judge fails what it can see of them', async (name) => {
    const { start, fails, inTraffic } = APPS[name] as (typeof APPS)[string];
    const app = await start();
    try {
      const judge = new TrafficJudge({ base: app.baseUrl, source: name });
      const proxy = await startProxy({ target: app.baseUrl, onExchange: (e) => void judge.add(e) });
      let report: ConformanceReport;
      try {
        report = await runConformance({ baseUrl: `${proxy.origin}/v1`, apiKey: API_KEY });
      } finally {
        await proxy.close();
      }
      expect(failed(report).sort(), notPassed(report).join('\n')).toEqual(fails);
      const traffic = await judge.report();
      expect(failed(traffic).sort(), notPassed(traffic).join('\n')).toEqual(inTraffic);
      // What the judge fails, the run fails too: no false alarm from either.
      expect(inTraffic.filter((id) => !fails.includes(id))).toEqual([]);
    } finally {
      await app.stop();
    }
  }, 600_000);
});
