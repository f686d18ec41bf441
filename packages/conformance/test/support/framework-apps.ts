// The framework apps the kit is run against (framework-apps.test.ts, framework-apps-proxy.test.ts):
// how each is built and started on 127.0.0.1, and the checks the kit and the traffic judge fail
// on it.

import { copyFile, cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument30 } from '@animal-store/contract';
import { PYTHON_VENV, runProcess, startLogged } from '@animal-store/test-support';
import express4 from 'express4';
import express5 from 'express5';
import { CACHE_ROOT, cachedBuild } from './build-cache.js';
import { expressPetApp } from './express-pet-app.js';
import { fastifyPetApp } from './fastify-pet-app.js';
import { h3PetApp, serveH3 } from './h3-pet-app.js';
import { hapiPetApp } from './hapi-pet-app.js';
import { honoPetApp, serveHono } from './hono-pet-app.js';
import { koaPetApp } from './koa-pet-app.js';

/** How the JVM runs an app of one or two kit runs: C1 alone, one collector thread. */
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** The jars of Debian's Clojure packages that the Compojure app loads, in /usr/share/java. */
const COMPOJURE_JARS = ['clojure', 'ring-core', 'compojure', 'ring-jetty-adapter', 'cheshire'];

/** The script that builds the pinned Go and Rust code generators (tooling/clients). */
const NATIVE_TOOLS = fileURLToPath(
  new URL('../../../../tooling/clients/native-tools.sh', import.meta.url),
);

/** The Go apps' shared module (frameworks/petmodel-go). */
const PETMODEL_MODULE = 'github.com/animal-store/conformance/test/frameworks/petmodel';

/** The key every framework app takes. */
export const API_KEY = 'framework-app-key-0123456789';

/** An app listening on 127.0.0.1: its base URL, and how to stop it. */
export interface RunningApp {
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
 * A runtime the repository's root pins as an optional dependency from the npm registry: `binary`
 * in its package `pkg`, else, on a platform it has none for, `command` on PATH.
 */
function pinnedRuntime(pkg: string, binary: string, command: string): string {
  const root = createRequire(new URL('../../../../package.json', import.meta.url));
  try {
    return join(dirname(root.resolve(`${pkg}/package.json`)), binary);
  } catch {
    return command;
  }
}

/** Bun, from @oven/bun-linux-<arch> (aarch64 for arm64). */
const bunCommand = () =>
  pinnedRuntime(
    `@oven/bun-linux-${process.arch === 'arm64' ? 'aarch64' : process.arch}`,
    'bin/bun',
    'bun',
  );

/** Deno, from @deno/linux-<arch>-glibc. */
const denoCommand = () => pinnedRuntime(`@deno/linux-${process.arch}-glibc`, 'deno', 'deno');

async function startHapi(): Promise<RunningApp> {
  const server = await hapiPetApp(API_KEY);
  return { baseUrl: `${server.info.uri}/v1`, stop: () => server.stop() };
}

/** The repository's root folder. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where each app's folder is: frameworks/NAME. */
const FRAMEWORKS = fileURLToPath(new URL('../frameworks/', import.meta.url));

/** Each build once per run, however many tests start its app. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

// Kept between runs, as Go's build cache is: the pinned crates are compiled once.
const CARGO_TARGET = join(CACHE_ROOT, 'cargo-target-framework-apps');

type PythonApp =
  | 'flask'
  | 'fastapi'
  | 'django'
  | 'aiohttp'
  | 'tornado'
  | 'sanic'
  | 'falcon'
  | 'litestar'
  | 'connexion'
  | 'bottle'
  | 'cherrypy'
  | 'pyramid';

/** The python of frameworks/NAME's pinned venv (made on first use). */
async function venvPython(name: PythonApp): Promise<string> {
  const venv = await runProcess('bash', [PYTHON_VENV, join(FRAMEWORKS, name), 'python']);
  if (venv.exitCode !== 0) throw new Error(`no ${name} venv:\n${venv.stderr}`);
  return venv.stdout.trim();
}

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

/**
 * What the kit and the judge fail on a Java app that reads bodies with a plain Jackson ObjectMapper
 * (which coerces 1.5 into 1, true into "true", 0 into an enum's first value) and its petId with
 * Long's parsers (which take any script's digits).
 */
const JACKSON_AND_LONG = [
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'createPet.invalid-status',
  'errors.created-pets-agree',
  'getPet.path-boundaries',
];

/**
 * What the judge fails on a Perl app with the spec's rules of frameworks/PetRules.pm (a scalar is
 * a string and a number at once) and Cpanel::JSON::XS (which writes an encoded surrogate back as
 * it came); the kit fails these and `listPets.status-default-limit`, whose lists carry such pets.
 */
const PERL_SCALARS_IN_TRAFFIC = [
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'errors.pet-fields',
  'errors.strict-json',
];

/** The Authorization shapes carrying no valid key that Hono's bearerAuth answers with 400. */
const MALFORMED_CREDENTIALS = [
  'empty-token',
  'no-scheme',
  'scheme-prefixed',
  'word-after-key',
  'word-before-key',
  'wrong-scheme',
];

/** The checks whose 400 Laravel's validation answers with 422 (Unprocessable Content). */
const LARAVEL_422 = [
  'createPet.blank-body',
  'createPet.body-not-object',
  'createPet.deep-nesting',
  'createPet.empty-body',
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'createPet.invalid-status',
  'createPet.malformed-json',
  'createPet.missing-category-id',
  'createPet.missing-category-id-other-case',
  'createPet.missing-category-id-snake-case',
  'createPet.missing-name',
  'createPet.missing-name-other-case',
  'createPet.wrapped-body',
];

/**
 * What the kit fails on the Pekko HTTP app with `--disposable-key`: its authenticateOAuth2
 * reads a token from `?access_token=` too (RFC 6750 §2.3), so it takes the key itself there.
 */
const PEKKO_KEY_IN_QUERY = [
  'auth.createPet.key-in-query',
  'auth.getPet.key-in-query',
  'auth.listPets.key-in-query',
];

/**
 * What the kit and the judge fail on the Ktor app: its lenient json() takes `true` as a name, its
 * Long reader lets 2^64 wrap around to 0, toLongOrNull reads any script's digits, and its
 * content negotiation answers UTF-16 to an Accept-Charset that prefers it.
 */
const KTOR = [
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'errors.created-pets-agree',
  'errors.json-body',
  'errors.pet-fields',
  'errors.strict-json',
  'getPet.path-boundaries',
];

/**
 * What the judge fails on the Grape app: all the kit fails there but what only the kit's own
 * requests show (bodies Grape cannot read or write, limits that are no integer, lists a stored
 * null name spoils).
 */
const GRAPE_IN_TRAFFIC = [
  'createPet.invalid-category-id',
  'createPet.invalid-name',
  'createPet.missing-category-id-in-query',
  'createPet.missing-name-in-query',
  'errors.created-pets-agree',
  'errors.error-schema',
  'errors.json-body',
  'errors.no-server-errors',
  'errors.pet-fields',
  'getPet.path-boundaries',
];

/**
 * What Laravel's requests, validation and bearerToken make the kit and the judge fail on the Lumen
 * app, on any server.
 */
const LUMEN = {
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
    'createPet.blank-body',
    'createPet.body-not-object',
    'createPet.empty-body',
    'createPet.invalid-category-id',
    'createPet.invalid-status',
    'createPet.malformed-json',
    'createPet.missing-category-id-in-query',
    'createPet.missing-name-in-query',
    'errors.pet-fields',
    'errors.success-status',
  ],
};

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
  // The judge knows no key: it sees the 400s to the reads, which have nothing else wrong, and
  // counts a key with no scheme as a scheme of its own (`wrong-scheme`), and a word before the
  // key as one after the token (`word-after-key`).
  inTraffic: [
    ...['getPet', 'listPets'].flatMap((op) =>
      MALFORMED_CREDENTIALS.filter(
        (shape) => !['no-scheme', 'word-before-key'].includes(shape),
      ).map((shape) => `auth.${op}.${shape}`),
    ),
    'getPet.path-boundaries',
  ].sort(),
};

/** A Maven app's build: its jar, and the `java` that runs it. */
interface JavaApp {
  readonly java: string;
  readonly jar: string;
}

/** An app of the table: how to start it, and what the kit and the judge fail on it, sorted. */
export interface FrameworkApp {
  readonly start: () => Promise<RunningApp>;
  readonly fails: readonly string[];
  readonly inTraffic: readonly string[];
  /**
   * The checks the kit fails besides `fails` when it runs through the proxy: where the app closes
   * the connection without an answer, the proxy answers `502` in plain text (RFC 9110 §15.6.3),
   * a server error and no JSON.
   */
  readonly throughProxy?: readonly string[];
  /**
   * The checks of `fails` the kit passes through the proxy, which sends each `POST` to the app on
   * a connection of its own, any other request on a connection of its pool (never one that is
   * new because the kit's is) and forwards a chunked body without its extensions and trailer
   * fields: what the app does to a request because of the one before it on its connection
   * (Jetty's header cache), or to those, cannot show there. Nor does the proxy's run send the key
   * itself where servers log it (no `--disposable-key`), as the straight run does.
   */
  readonly passesThroughProxy?: readonly string[];
  /**
   * The check whose requests take the app down: every check the run starts after it fails too,
   * for want of a server, besides `fails`. Through the proxy, what fails then is the proxy's `502`.
   */
  readonly diesAt?: string;
  /**
   * Why the kit's run through the proxy fails otherwise than `fails`, varying from run to run: for
   * example, the proxy keeps its connections to the app open and sends any client's next request
   * on one, and what the app left unread on it meets whichever request comes next.
   */
  readonly variesThroughProxy?: string;
}

/**
 * The framework apps, their builds made in `built` (a folder the caller removes when done), each
 * at most once however many tests start it. Each app, the checks the kit fails on it (its framework's doing, named below), and those the
 * traffic judge fails on the kit's traffic to it through the proxy, each sorted. The judge sees
 * less than the run: no rule of its own relates a bracketed limit, recased members or a 500.
 */
export function frameworkApps(built: {
  readonly path: string;
}): Readonly<Record<string, FrameworkApp>> {
  /** Builds the Go app in frameworks/NAME with the `go` on PATH (its build cache keeps it quick). */
  function goApp(name: 'go' | 'gin' | 'fiber' | 'echo' | 'hertz'): () => Promise<string> {
    return once(async () => {
      const dir = join(FRAMEWORKS, name);
      const binary = join(built.path, `${name}-petapp`);
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
  /** The contract's OpenAPI document in its 3.0 edition, written once for the apps built from it. */
  const openApi30 = once(async () => {
    const file = join(built.path, 'openapi-3.0.json');
    await writeFile(file, JSON.stringify(openApiDocument30));
    return file;
  });

  /**
   * Builds the oapi-codegen app: the pinned oapi-codegen (tooling/clients/native-tools.sh builds it
   * into the cache) generates package api from the document beside a copy of the app, which finds
   * petmodel-go where it lies; then `go build`.
   */
  const buildOapiCodegenApp = once(async () => {
    const out = join(built.path, 'oapi-codegen');
    await cp(join(FRAMEWORKS, 'oapi-codegen'), out, { recursive: true });
    const tools = await runProcess('bash', [NATIVE_TOOLS, 'go']);
    const generator = /^oapi-codegen=(.+)$/m.exec(tools.stdout)?.[1];
    if (generator === undefined) throw new Error(`no oapi-codegen:\n${tools.stderr}`);
    const generated = await runProcess(generator, [
      ...['-generate', 'types,std-http-server,strict-server,spec', '-package', 'api'],
      await openApi30(),
    ]);
    if (generated.exitCode !== 0) throw new Error(`oapi-codegen failed:\n${generated.stderr}`);
    await mkdir(join(out, 'api'));
    await writeFile(join(out, 'api', 'server.gen.go'), generated.stdout);
    const env = { ...process.env, GOTOOLCHAIN: 'local' };
    for (const args of [
      ['mod', 'edit', `-replace=${PETMODEL_MODULE}=${join(FRAMEWORKS, 'petmodel-go')}`],
      ['build', '-trimpath', '-buildvcs=false', '-o', 'petapp', '.'],
    ]) {
      const go = await runProcess('go', args, { cwd: out, env });
      if (go.exitCode !== 0) throw new Error(`go ${args[0]} of ${out} failed:\n${go.stderr}`);
    }
    return join(out, 'petapp');
  });

  const buildGoApp = goApp('go');
  const buildGinApp = goApp('gin');
  const buildFiberApp = goApp('fiber');
  const buildEchoApp = goApp('echo');
  const buildHertzApp = goApp('hertz');

  /**
   * Builds the Rust app in frameworks/NAME with the `cargo` on PATH, from the crates its Cargo.lock
   * pins.
   */
  function cargoApp(name: 'axum' | 'actix' | 'rocket'): () => Promise<string> {
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
  const buildRocketApp = cargoApp('rocket');

  /**
   * Builds the Maven app in frameworks/NAME with the `mvn` on PATH, or takes the jar its sources
   * built before from the cache (frameworks/maven-app.sh); gives the jar and the `java` of the JDK
   * that built it (one new enough for the release its pom names).
   */
  function mavenApp(
    name:
      | 'spring'
      | 'javalin'
      | 'vertx'
      | 'jersey'
      | 'ktor'
      | 'helidon'
      | 'pekko'
      | 'jdk-httpserver',
  ): () => Promise<JavaApp> {
    return once(async () => {
      const out = join(built.path, name);
      const maven = await runProcess('bash', [join(FRAMEWORKS, 'maven-app.sh'), name, out]);
      if (maven.exitCode !== 0) throw new Error(`the ${name} app's build failed:\n${maven.stderr}`);
      // Its one line of output is the command that runs the app: JAVA -jar JAR.
      const command = /^(\S+) -jar (\S+)$/.exec(maven.stdout.trim());
      if (command === null) throw new Error(`maven-app.sh printed no command: ${maven.stdout}`);
      return { java: command[1] as string, jar: command[2] as string };
    });
  }
  const buildSpringApp = mavenApp('spring');
  const buildJavalinApp = mavenApp('javalin');
  const buildVertxApp = mavenApp('vertx');
  const buildJerseyApp = mavenApp('jersey');
  const buildKtorApp = mavenApp('ktor');
  const buildHelidonApp = mavenApp('helidon');
  const buildPekkoApp = mavenApp('pekko');
  const buildJdkApp = mavenApp('jdk-httpserver');

  /**
   * Compiles the app of one source file in frameworks/NAME with `compiler` on PATH (and `tools`,
   * other commands it runs), given its arguments for the build's folder, the binary's path and the
   * source's; gives the binary, kept in the build cache (support/build-cache.ts). The source is
   * compiled from a copy in that folder, where compilers that write their objects beside it
   * (ocamlopt) write them.
   */
  function compiledApp(
    name: string,
    source: string,
    compiler: string,
    args: (out: string, binary: string, source: string) => string[],
    tools: readonly string[] = [],
  ): () => Promise<string> {
    return once(async () => {
      const inputs = {
        files: [join(FRAMEWORKS, name, source)],
        command: [compiler, ...args('OUT', 'OUT/petapp', `OUT/${source}`)],
        tools: [compiler, ...tools],
      };
      const out = await cachedBuild(name, inputs, async (folder) => {
        await copyFile(join(FRAMEWORKS, name, source), join(folder, source));
        const run = await runProcess(
          compiler,
          args(folder, join(folder, 'petapp'), join(folder, source)),
        );
        if (run.exitCode !== 0) {
          throw new Error(`${compiler} of the ${name} app failed:\n${run.stdout}${run.stderr}`);
        }
      });
      return join(out, 'petapp');
    });
  }
  // Scotty and the Haskell packages Debian installs beside ghc (libghc-scotty-dev).
  const buildScottyApp = compiledApp('scotty', 'Main.hs', 'ghc', (out, binary, source) => [
    ...['-O0', '-outputdir', out, '-o', binary, source],
  ]);
  // Ulfius (C) and the libraries Debian installs with libulfius-dev.
  // The libraries follow the source, which needs them (the linker reads them in order).
  const buildUlfiusApp = compiledApp('ulfius', 'app.c', 'gcc', (_, binary, source) => [
    ...['-O1', '-Wall', '-o', binary, source],
    ...['-lulfius', '-ljansson', '-lorcania', '-lmicrohttpd', '-lpthread'],
  ]);
  // cpp-httplib and nlohmann::json (C++), which Debian installs with libcpp-httplib-dev and
  // nlohmann-json3-dev; the defines are those pkg-config gives for Debian's build of the library.
  const buildHttplibApp = compiledApp('httplib', 'app.cpp', 'g++', (_, binary, source) => [
    ...['-std=c++17', '-O1', '-Wall', '-o', binary, source],
    ...['-DCPPHTTPLIB_OPENSSL_SUPPORT', '-DCPPHTTPLIB_ZLIB_SUPPORT', '-DCPPHTTPLIB_BROTLI_SUPPORT'],
    ...['-lcpp-httplib', '-lpthread'],
  ]);
  // MochiWeb and mochijson2 (Erlang), which Debian installs with erlang-mochiweb; erlc writes
  // petapp.beam into the app's folder, the folder of the path given, which `erl -pa` then reads.
  const buildMochiwebApp = compiledApp('mochiweb', 'petapp.erl', 'erlc', (out, _, source) => [
    ...['-o', out, source],
  ]);
  // HttpListener (Mono's) and Json.NET (C#), which Debian installs with mono-mcs and
  // libnewtonsoft-json-cil-dev; the reference is the path its pkg-config gives.
  const buildHttpListenerApp = compiledApp('httplistener', 'App.cs', 'mcs', (_, binary, source) => [
    ...[`-out:${binary}`, '-r:/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll', source],
  ]);
  // Nim's standard library (asynchttpserver, std/json), which Debian installs with nim; its C
  // sources go to the app's folder, not to ~/.cache/nim.
  const buildNimApp = compiledApp(
    'nim',
    'app.nim',
    'nim',
    (out, binary, source) => [
      ...['c', '-d:release', '--hints:off', '--warnings:off', `--nimcache:${join(out, 'cache')}`],
      ...[`-o:${binary}`, source],
    ],
    ['gcc'],
  );
  // cohttp-lwt-unix and Yojson (OCaml), which Debian installs with libcohttp-lwt-unix-ocaml-dev
  // and libyojson-ocaml-dev; Lwt's scheduler needs the threads library.
  const buildCohttpApp = compiledApp(
    'cohttp',
    'app.ml',
    'ocamlfind',
    (_, binary, source) => [
      ...['ocamlopt', '-thread', '-package', 'cohttp-lwt-unix,yojson', '-linkpkg'],
      ...['-o', binary, source],
    ],
    ['ocamlopt'],
  );

  /**
   * Compiles the NestJS app with the workspace's tsc (esbuild, which vitest uses, emits no decorator
   * metadata, and Nest reads its DTOs' types from it), kept in the build cache; gives its main.js in
   * a copy in `built`, an ES module that finds its packages as it would in this package.
   */
  const buildNestApp = once(async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const project = join(FRAMEWORKS, 'nest', 'tsconfig.json');
    const inputs = {
      // The base config, and the lockfile for the versions of tsc and of the types it reads.
      files: [
        join(FRAMEWORKS, 'nest'),
        join(REPO_ROOT, 'tsconfig.base.json'),
        join(REPO_ROOT, 'pnpm-lock.yaml'),
      ],
      command: ['tsc', '-p', 'nest/tsconfig.json'],
      tools: [],
    };
    const compiled = await cachedBuild('nest', inputs, async (folder) => {
      const run = await runProcess(process.execPath, [tsc, '-p', project, '--outDir', folder]);
      if (run.exitCode !== 0) throw new Error(`tsc of the NestJS app failed:\n${run.stdout}`);
    });
    const out = join(built.path, 'nest');
    await cp(compiled, out, { recursive: true });
    await symlink(
      fileURLToPath(new URL('../../node_modules', import.meta.url)),
      join(out, 'node_modules'),
    );
    await writeFile(join(out, 'package.json'), '{"type":"module"}');
    return join(out, 'main.js');
  });

  /**
   * Starts a server that `command` runs and that prints "listening on PORT", in this run's temporary
   * folder, which is its `TMPDIR` too: what a framework writes beside it (Vert.x's upload folder)
   * stays out of the repository, and what it leaves in its temporary folder when stopped (R's
   * `Rtmp*` session folders) goes with the run's.
   */
  async function startProcess(
    command: string,
    args: readonly string[],
    env: Readonly<Record<string, string>> = {},
  ): Promise<RunningApp> {
    const app = await startLogged(command, args, {
      env: { API_KEY, PATH: process.env.PATH ?? '', TMPDIR: built.path, ...env },
      cwd: built.path,
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
  const javaApp = async (built: Promise<JavaApp>) => {
    const { java, jar } = await built;
    return startProcess(java, [...JVM_FLAGS, '-jar', jar]);
  };

  /**
   * Starts the Compojure app (Clojure) on the JDK on PATH with Debian's jars, each of which names
   * the jars it needs on its manifest's Class-Path; the JVM as for a Maven app.
   */
  const compojureApp = () =>
    startProcess('java', [
      ...JVM_FLAGS,
      '-cp',
      COMPOJURE_JARS.map((jar) => `/usr/share/java/${jar}.jar`).join(':'),
      'clojure.main',
      join(FRAMEWORKS, 'compojure', 'app.clj'),
    ]);

  const pythonApp = async (name: PythonApp) =>
    startProcess(await venvPython(name), [join(FRAMEWORKS, name, 'app.py')]);

  let phpStarts = 0;

  /**
   * Starts the PHP app in frameworks/NAME on PHP's built-in server (or on `server`, another script
   * there), with a file of its own to keep pets in (and, beside it, what the app writes: Symfony's
   * cache).
   */
  const phpApp = async (name: 'lumen' | 'symfony', server = 'serve_on_php.sh') => {
    const folder = join(built.path, `${name}-${++phpStarts}`);
    await mkdir(folder);
    return startProcess('sh', [join(FRAMEWORKS, server), join(FRAMEWORKS, name, 'index.php')], {
      PETS_FILE: join(folder, 'pets.json'),
    });
  };

  return {
    'Express 5': { start: () => startExpress(express5), fails: [], inTraffic: [] },
    'Express 4': {
      start: () => startExpress(express4),
      fails: ['listPets.bracketed-limit'],
      inTraffic: [],
    },
    Koa: {
      start: startKoa,
      fails: ['auth.every-read-shape', 'auth.every-write-shape'],
      inTraffic: [],
    },
    h3: { start: () => serveH3(h3PetApp(API_KEY)), fails: [], inTraffic: [] },
    Fastify: {
      start: startFastify,
      fails: [
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.invalid-status',
        'errors.error-schema',
        'getPet.path-boundaries',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.invalid-status',
        'errors.error-schema',
        'getPet.path-boundaries',
      ],
    },
    Hono: { start: startHono, ...HONO },
    'Hono on Bun': {
      start: () => startProcess(bunCommand(), [join(FRAMEWORKS, 'bun', 'main.ts')]),
      fails: HONO.fails,
      inTraffic: HONO.inTraffic,
    },
    'Hono on Deno': {
      // Deno keeps what it compiles in DENO_DIR (~/.cache/deno by default): the app's folder here.
      // The app's imports resolve in the workspace's node_modules; --cached-only keeps Deno off
      // the network.
      start: () =>
        startProcess(
          denoCommand(),
          [
            'run',
            '--cached-only',
            '--allow-env',
            '--allow-net',
            '--allow-read',
            join(FRAMEWORKS, 'deno', 'main.ts'),
          ],
          { DENO_DIR: join(built.path, 'deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
        ),
      fails: HONO.fails,
      inTraffic: HONO.inTraffic,
    },
    Elysia: {
      start: () => startProcess(bunCommand(), [join(FRAMEWORKS, 'elysia', 'main.ts')]),
      fails: [
        'createPet.deep-nesting',
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'errors.pet-fields',
        'getPet.path-boundaries',
        'listPets.every-limit',
        'listPets.limit-100',
        'listPets.status-default-limit',
      ],
      // The judge cannot tell a 400 to Application/JSON from one to a body's own fault, nor a
      // pet missing from a list from one another client changed (errors.same-pet advises).
      inTraffic: [
        'createPet.invalid-category-id',
        'errors.no-server-errors',
        'errors.pet-fields',
        'getPet.path-boundaries',
      ],
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
      fails: ENCODING_JSON.fails,
      inTraffic: ENCODING_JSON.inTraffic,
    },
    Gin: {
      start: async () => startProcess(await buildGinApp(), []),
      fails: [...ENCODING_JSON.fails, 'getPet.path-boundaries'].sort(),
      inTraffic: [...ENCODING_JSON.inTraffic, 'getPet.path-boundaries'].sort(),
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
    Hertz: {
      start: async () => startProcess(await buildHertzApp(), []),
      fails: [
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.recased-members',
        'errors.created-pets-agree',
        'errors.json-body',
        'errors.no-server-errors',
      ],
      // The judge sees the 500s; a 500 to a null member is not what it holds a refusal to.
      inTraffic: ['errors.created-pets-agree', 'errors.json-body', 'errors.no-server-errors'],
    },
    Flask: {
      start: () => pythonApp('flask'),
      fails: ['createPet.deep-nesting', 'errors.no-server-errors', 'getPet.path-boundaries'],
      inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
    },
    'Flask on gunicorn': {
      start: async () =>
        startProcess(await venvPython('flask'), [join(FRAMEWORKS, 'flask', 'on_gunicorn.py')]),
      fails: ['createPet.deep-nesting', 'errors.no-server-errors', 'getPet.path-boundaries'],
      inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
    },
    CherryPy: {
      start: () => pythonApp('cherrypy'),
      variesThroughProxy:
        'after its 411 to a body sent chunked, cheroot keeps the connection open with the body unread, and reads it as the next request: "400 Malformed Request-Line"',
      fails: [
        'createPet.deep-nesting',
        'createPet.media-type-spellings',
        'createPet.unread-body',
        'errors.json-body',
        'errors.no-server-errors',
        'getPet.path-boundaries',
        'listPets.repeated-parameter',
      ],
      inTraffic: [
        'createPet.media-type-spellings',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
    },
    Pyramid: {
      start: () => pythonApp('pyramid'),
      fails: [
        'createPet.deep-nesting',
        'errors.no-server-errors',
        'getPet.path-boundaries',
        'listPets.limit-out-of-range',
      ],
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
    Sanic: {
      start: () => pythonApp('sanic'),
      fails: ['getPet.path-boundaries'],
      inTraffic: ['getPet.path-boundaries'],
    },
    Falcon: {
      start: () => pythonApp('falcon'),
      fails: [
        'createPet.deep-nesting',
        'createPet.media-type-spellings',
        'createPet.unpaired-surrogate',
        'errors.json-body',
        'errors.no-server-errors',
        'getPet.path-boundaries',
        'listPets.status-default-limit',
      ],
      inTraffic: [
        'createPet.media-type-spellings',
        'errors.json-body',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
    },
    // One request at a time, each on a connection of its own (HTTP/1.0), five waiting at most.
    Bottle: {
      start: () => pythonApp('bottle'),
      fails: [
        'createPet.deep-nesting',
        'createPet.media-type-spellings',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
      inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
    },
    FastAPI: {
      start: () => pythonApp('fastapi'),
      fails: [
        'createPet.invalid-category-id',
        'createPet.not-utf8',
        'createPet.unpaired-surrogate',
        'errors.json-body',
        'errors.no-server-errors',
        'errors.pet-fields',
        'getPet.path-boundaries',
        'listPets.status-default-limit',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'errors.json-body',
        'errors.no-server-errors',
        'errors.pet-fields',
        'getPet.path-boundaries',
      ],
    },
    Litestar: {
      start: () => pythonApp('litestar'),
      fails: [
        'createPet.deep-nesting',
        'createPet.invalid-category-id',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
    },
    'Django REST framework': {
      start: () => pythonApp('django'),
      fails: [
        'auth.every-read-shape',
        'createPet.deep-nesting',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.request-shapes',
        'createPet.string-boundaries',
        'errors.created-pets-agree',
        'errors.json-body',
        'errors.no-server-errors',
        'errors.pet-fields',
        'listPets.request-shapes',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'errors.created-pets-agree',
        'errors.json-body',
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
    Rocket: {
      start: async () => startProcess(await buildRocketApp(), []),
      fails: ['createPet.media-type-spellings', 'listPets.bracketed-limit'],
      // Rocket answers the spelling 404 (no route takes it), which the judge leaves alone: only a
      // 415 is judged; nor does it relate a bracketed limit.
      inTraffic: [],
    },
    Scotty: {
      start: async () => startProcess(await buildScottyApp(), []),
      fails: ['errors.pet-fields', 'getPet.path-boundaries'],
      inTraffic: ['errors.pet-fields', 'getPet.path-boundaries'],
    },
    'oapi-codegen': {
      start: async () => startProcess(await buildOapiCodegenApp(), []),
      fails: [],
      inTraffic: [],
    },
    Connexion: {
      start: async () =>
        startProcess(await venvPython('connexion'), [join(FRAMEWORKS, 'connexion', 'app.py')], {
          OPENAPI_DOCUMENT: await openApi30(),
        }),
      fails: [
        'createPet.deep-nesting',
        'createPet.media-type-spellings',
        'createPet.not-utf8',
        'createPet.other-media-types',
        'createPet.request-shapes',
        'errors.no-server-errors',
      ],
      inTraffic: ['createPet.media-type-spellings', 'errors.no-server-errors'],
    },
    Compojure: {
      start: compojureApp,
      fails: [
        'auth.createPet.valid-key-after-other-case',
        'auth.getPet.valid-key-after-other-case',
        'auth.listPets.valid-key-after-other-case',
        'errors.error-schema',
        'errors.json-body',
        'errors.no-server-errors',
        'getPet.path-boundaries',
        'listPets.repeated-parameter',
      ],
      inTraffic: [
        'errors.error-schema',
        'errors.json-body',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
      passesThroughProxy: [
        'auth.createPet.valid-key-after-other-case',
        'auth.getPet.valid-key-after-other-case',
        'auth.listPets.valid-key-after-other-case',
      ],
    },
    Ulfius: {
      start: async () => startProcess(await buildUlfiusApp(), []),
      fails: [
        'createPet.media-type-spellings',
        'createPet.other-media-types',
        'getPet.path-boundaries',
      ],
      inTraffic: ['getPet.path-boundaries'],
      throughProxy: ['errors.json-body', 'errors.no-server-errors'],
    },
    'cpp-httplib': {
      start: async () => startProcess(await buildHttplibApp(), []),
      fails: [
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'createPet.not-utf8',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
      // The judge sees the 500s to names that are no UTF-8, as errors.no-server-errors.
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
    },
    MochiWeb: {
      start: async () => {
        const code = dirname(await buildMochiwebApp());
        return startProcess('erl', ['-noshell', '-pa', code, '-s', 'petapp', 'main']);
      },
      fails: [
        'createPet.category-id-beyond-int64-exact',
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'createPet.not-utf8',
        'createPet.request-shapes',
        'errors.no-server-errors',
        'errors.pet-fields',
        'listPets.status-default-limit',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'errors.no-server-errors',
        'errors.pet-fields',
      ],
      // The proxy's client refuses the 201 after a 100 Continue that says close, as the kit's does.
      throughProxy: ['errors.json-body'],
    },
    'HttpListener with Json.NET': {
      // Started without LANG, as every app here: Mono's default encoding is then ASCII.
      start: async () => startProcess('mono', [await buildHttpListenerApp()]),
      fails: [
        'createPet.body-in-pieces',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.missing-category-id-other-case',
        'createPet.missing-name-other-case',
        'createPet.non-ascii-name-kept',
        'createPet.readable-by-id',
        'createPet.recased-members',
        'errors.created-pets-agree',
        'getPet.path-boundaries',
        'listPets.large-answer',
        'listPets.recased-limit',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.missing-category-id-other-case',
        'createPet.missing-name-other-case',
        'errors.created-pets-agree',
        'getPet.path-boundaries',
      ],
    },
    Nim: {
      start: async () => startProcess(await buildNimApp(), []),
      fails: ['errors.strict-json', 'getPet.path-boundaries'],
      inTraffic: ['errors.strict-json', 'getPet.path-boundaries'],
    },
    Hunchentoot: {
      // On Debian's SBCL, which loads Hunchentoot and yason with ASDF from /usr/share/common-lisp.
      start: () =>
        startProcess('sbcl', [
          ...['--noinform', '--non-interactive'],
          ...['--load', join(FRAMEWORKS, 'hunchentoot', 'app.lisp')],
        ]),
      // yason writes control characters as they are; SBCL dies at
      // the second body nested past a worker thread's stacks.
      fails: [
        'createPet.deep-nesting',
        'createPet.string-boundaries',
        'errors.pet-fields',
        'errors.strict-json',
      ],
      diesAt: 'createPet.deep-nesting',
      inTraffic: ['errors.pet-fields', 'errors.strict-json'],
      variesThroughProxy:
        'SBCL dies at createPet.deep-nesting, and the proxy answers every request after it 502',
    },
    cohttp: {
      start: async () => startProcess(await buildCohttpApp(), []),
      fails: ['createPet.media-type-spellings', 'errors.strict-json', 'getPet.path-boundaries'],
      inTraffic: ['createPet.media-type-spellings', 'errors.strict-json', 'getPet.path-boundaries'],
    },
    'lua-http': {
      // On Lua 5.2: Debian packages lua-http's dependencies (lua-fifo) for 5.1 and 5.2 alone.
      start: () => startProcess('lua5.2', [join(FRAMEWORKS, 'lua-http', 'app.lua')]),
      fails: [
        'createPet.category-id-exact',
        'createPet.integer-boundaries',
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'errors.created-pets-agree',
        'errors.pet-fields',
        'errors.strict-json',
        'getPet.path-boundaries',
        'listPets.status-default-limit',
      ],
      inTraffic: [
        'createPet.invalid-category-id',
        'createPet.media-type-spellings',
        'errors.created-pets-agree',
        'errors.pet-fields',
        'errors.strict-json',
        'getPet.path-boundaries',
      ],
    },
    plumber: {
      // In a UTF-8 locale, as R servers run (R reads strings by the locale's encoding).
      start: () =>
        startProcess('Rscript', [join(FRAMEWORKS, 'plumber', 'app.R')], { LANG: 'C.UTF-8' }),
      fails: [
        'createPet.blank-body',
        'createPet.body-not-object',
        'createPet.category-id-exact',
        'createPet.deep-nesting',
        'createPet.integer-boundaries',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.invalid-status',
        'createPet.malformed-json',
        'createPet.media-type-spellings',
        'createPet.not-utf8',
        'createPet.other-media-types',
        'createPet.string-boundaries',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'errors.pet-fields',
        'errors.strict-json',
        'getPet.not-found',
        'getPet.path-boundaries',
        'listPets.limit-out-of-range',
        'listPets.repeated-parameter',
        'listPets.status-default-limit',
      ],
      // The judge holds a refused body to no status but 400 or another 4xx: it sees the 2xx and 5xx.
      inTraffic: [
        'createPet.body-not-object',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.invalid-status',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'errors.pet-fields',
        'errors.strict-json',
      ],
    },
    Sinatra: {
      start: () => startProcess('ruby', [join(FRAMEWORKS, 'sinatra', 'app.rb')]),
      fails: [
        'createPet.not-utf8',
        'createPet.unpaired-surrogate',
        'errors.no-server-errors',
        'getPet.path-boundaries',
        'listPets.bracketed-limit',
        'listPets.status-default-limit',
      ],
      inTraffic: ['errors.no-server-errors', 'getPet.path-boundaries'],
    },
    Grape: {
      // Grape parses with `JSON.load`, which sets no depth limit and recurses in C on a Puma
      // thread's 1 MiB machine stack: an overflow there now and then lands in a garbage
      // collection, and Ruby ends the process ("[BUG] system stack overflow during GC"), so no
      // two runs would fail alike. With 256 MiB the parse ends, and ActiveSupport's conversion of
      // the nested arrays overflows the Ruby stack instead: a `SystemStackError`, answered `500`
      // every time.
      start: () =>
        startProcess('ruby', [join(FRAMEWORKS, 'grape', 'app.rb')], {
          RUBY_THREAD_MACHINE_STACK_SIZE: String(256 * 2 ** 20),
        }),
      fails: [
        ...GRAPE_IN_TRAFFIC,
        'auth.every-read-shape',
        'createPet.deep-nesting',
        'createPet.not-utf8',
        'createPet.other-media-types',
        'createPet.unpaired-surrogate',
        'listPets.json-whatever-asked',
        'listPets.limit-out-of-range',
        'listPets.status-default-limit',
      ].sort(),
      inTraffic: GRAPE_IN_TRAFFIC,
    },
    Rails: {
      start: () => startProcess('ruby', [join(FRAMEWORKS, 'rails', 'app.rb')]),
      fails: [
        'auth.createPet.wrong-scheme',
        'auth.getPet.wrong-scheme',
        'auth.listPets.wrong-scheme',
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
        ...PERL_SCALARS_IN_TRAFFIC,
        'createPet.method-override',
        'errors.success-status',
        'listPets.status-default-limit',
      ].sort(),
      inTraffic: [...PERL_SCALARS_IN_TRAFFIC, 'errors.success-status'].sort(),
    },
    'Dancer2 on Starman': {
      start: () => startProcess('perl', [join(FRAMEWORKS, 'dancer2', 'app.pl')]),
      fails: [...PERL_SCALARS_IN_TRAFFIC, 'listPets.status-default-limit'],
      inTraffic: PERL_SCALARS_IN_TRAFFIC,
    },
    Symfony: {
      start: () => phpApp('symfony'),
      fails: [
        'createPet.method-override',
        'errors.no-server-errors',
        'errors.pet-fields',
        'errors.success-status',
        'getPet.path-boundaries',
      ],
      inTraffic: ['errors.no-server-errors', 'errors.pet-fields', 'errors.success-status'],
    },
    Lumen: { start: () => phpApp('lumen'), ...LUMEN },
    'Lumen on nginx and PHP-FPM': {
      start: () => phpApp('lumen', 'serve_on_fpm.sh'),
      // nginx's client_max_body_size (1 MiB) answers the kit's 2 MiB NewPet with its own HTML 413.
      fails: [...LUMEN.fails, 'createPet.large-body', 'errors.json-body'].sort(),
      inTraffic: [...LUMEN.inTraffic, 'errors.json-body'].sort(),
    },
    Javalin: {
      start: () => javaApp(buildJavalinApp()),
      fails: [
        ...JACKSON_AND_LONG,
        'auth.createPet.valid-key-after-other-case',
        'auth.getPet.valid-key-after-other-case',
        'auth.listPets.valid-key-after-other-case',
        'createPet.method-override',
        'errors.error-schema',
        'errors.pet-fields',
        'errors.success-status',
      ].sort(),
      inTraffic: [
        ...JACKSON_AND_LONG,
        'errors.error-schema',
        'errors.pet-fields',
        'errors.success-status',
      ].sort(),
      passesThroughProxy: [
        'auth.createPet.valid-key-after-other-case',
        'auth.getPet.valid-key-after-other-case',
        'auth.listPets.valid-key-after-other-case',
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
    Jersey: {
      start: () => javaApp(buildJerseyApp()),
      fails: JACKSON_AND_LONG,
      inTraffic: JACKSON_AND_LONG,
    },
    'JDK HttpServer with Jackson': {
      start: () => javaApp(buildJdkApp()),
      fails: [...JACKSON_AND_LONG, 'errors.no-server-errors'].sort(),
      inTraffic: JACKSON_AND_LONG,
      // The proxy forwards a chunked body without its trailer field, which the app answers 500.
      passesThroughProxy: ['errors.no-server-errors'],
    },
    Ktor: {
      start: () => javaApp(buildKtorApp()),
      fails: [...KTOR, 'auth.every-read-shape', 'listPets.json-whatever-asked'].sort(),
      inTraffic: KTOR,
    },
    'Pekko HTTP': {
      start: () => javaApp(buildPekkoApp()),
      fails: PEKKO_KEY_IN_QUERY,
      inTraffic: [],
      passesThroughProxy: PEKKO_KEY_IN_QUERY,
    },
    Helidon: {
      start: () => javaApp(buildHelidonApp()),
      fails: [
        'createPet.body-not-object',
        'createPet.empty-body',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'createPet.media-type-spellings',
        'createPet.other-media-types',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
      inTraffic: [
        'createPet.body-not-object',
        'createPet.invalid-category-id',
        'createPet.invalid-name',
        'errors.created-pets-agree',
        'errors.no-server-errors',
        'getPet.path-boundaries',
      ],
    },
    'Spring Boot': {
      start: () => javaApp(buildSpringApp()),
      fails: [
        ...JACKSON_AND_LONG,
        'createPet.other-media-types',
        'errors.json-body',
        'errors.no-server-errors',
        'listPets.bracketed-limit',
        'listPets.limit-out-of-range',
      ].sort(),
      inTraffic: [...JACKSON_AND_LONG, 'errors.json-body', 'errors.no-server-errors'].sort(),
    },
  };
}
