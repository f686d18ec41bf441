// Schemathesis with the spec document (support/schemathesis.ts), through the kit's proxy, in front
// of framework apps of framework-apps.test.ts, one or more of each language: traffic the kit did
// not send, to servers the kit judged. The traffic judge fails on it no check the kit passes on
// that app (no false alarm where the requests are not the kit's), and it passes each check it
// passes on every conforming server that the kit passes on the app. What Schemathesis itself
// finds is the frameworks' breaks of the spec: no assertion holds its exit code.

import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { API_KEY, type FrameworkApp, frameworkApps } from './support/framework-apps.js';
import { failed, notPassed } from './support/run-kit.js';
import { JUDGED_ON_EVERY_SERVER, schemathesisThroughProxy } from './support/schemathesis.js';

const built = new TemporaryFolder('conformance-framework-apps-fuzzed-');
afterAll(() => built.remove());
const APPS = frameworkApps(built);

/**
 * The apps fuzzed: stacks that read requests in different ways, a few seconds each. Spring Boot's
 * 500 to a multipart Content-Type without a boundary, which Schemathesis sends, was first found
 * here; the kit sends that shape too since.
 */
const FUZZED = [
  'Spring Boot',
  'Express 5',
  'h3',
  'NestJS',
  'Flask',
  'Flask on gunicorn',
  'CherryPy',
  'FastAPI',
  'Django REST framework',
  'Gin',
  'Hertz',
  'axum',
  'Javalin',
  'JDK HttpServer with Jackson',
  'Ktor',
  'Helidon',
  'Pekko HTTP',
  'Rails',
  'Scotty',
  'plumber',
  'Sinatra',
  'Mojolicious',
  'Lumen',
  'Lumen on nginx and PHP-FPM',
  'Ulfius',
  'Compojure',
  'Connexion',
  'oapi-codegen',
  'cohttp',
  'lua-http',
  'cpp-httplib',
  'MochiWeb',
  'HttpListener with Json.NET',
  'Nim',
  'Hono on Deno',
];

/**
 * Schemathesis goes on testing an operation after a failure there: an app that breaks the spec
 * in one answer still gets the bodies and queries Schemathesis would send a conforming one.
 */
const WHOLE_RUN = ['--continue-on-failure'];

const passed = (report: ConformanceReport) =>
  report.results.filter((r) => r.outcome === 'pass').map((r) => r.id);

describe('the traffic judge on Schemathesis traffic to framework apps', () => {
  it.each(
    FUZZED,
  )('fails on %s only checks the kit fails there, and passes the core of the others', async (name) => {
    const { start, fails } = APPS[name] as FrameworkApp;
    const app = await start();
    let traffic: ConformanceReport;
    try {
      const target = { baseUrl: app.baseUrl, apiKey: API_KEY, folder: built.path, source: name };
      ({ traffic } = await schemathesisThroughProxy(target, WHOLE_RUN));
    } finally {
      await app.stop();
    }
    const shown = notPassed(traffic).join('\n');
    expect(
      failed(traffic).filter((id) => !fails.includes(id)),
      shown,
    ).toEqual([]);
    expect(passed(traffic), shown).toEqual(
      expect.arrayContaining(JUDGED_ON_EVERY_SERVER.filter((id) => !fails.includes(id))),
    );
  }, 600_000);
});
