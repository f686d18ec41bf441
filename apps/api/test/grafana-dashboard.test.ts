/**
 * The Grafana dashboard in deploy/grafana, and its ConfigMap in deploy/kubernetes: every panel's
 * query is run against a real Prometheus (Debian's `prometheus`) scraping the built API, which
 * has answered requests of every kind the panels show, errors, a rate limit, a refused key and a
 * drain included: each query must parse and return series.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoggedProcess, onFreePort, spawnLogged, waitUntil } from '@animal-store/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deployFile as deploy } from './helpers/balancers.js';
import { startApiProcess } from './helpers/processes.js';
import { exchange } from './helpers/raw-http.js';

const JOB = 'animal-store-api';
const KEY = 'dashboard-key-0123456789';

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}
const dashboard = JSON.parse(readFileSync(deploy('grafana/animal-store.json'), 'utf8')) as {
  panels: Panel[];
  templating: { list: { name: string; definition?: string }[] };
};
const panels = dashboard.panels.filter((panel) => panel.type !== 'row');

/** A panel's query as Grafana sends it: the dashboard's variables filled in. */
const filled = (expr: string) =>
  expr.replaceAll('$__rate_interval', '1m').replaceAll('$job', JOB).replaceAll('$instance', '.*');

describe('deploy/grafana/animal-store.json', () => {
  it('ships in deploy/kubernetes as a ConfigMap Grafana loads, the same dashboard', () => {
    const configMap = parse(readFileSync(deploy('kubernetes/grafana-dashboard.yaml'), 'utf8'));
    expect(configMap.kind).toBe('ConfigMap');
    expect(configMap.metadata.labels.grafana_dashboard).toBe('1');
    // Byte for byte: deploy/grafana/configmap.sh writes it.
    expect(configMap.data['animal-store.json']).toBe(
      readFileSync(deploy('grafana/animal-store.json'), 'utf8'),
    );
    expect(execFileSync('bash', [deploy('grafana/configmap.sh')], { encoding: 'utf8' })).toBe(
      readFileSync(deploy('kubernetes/grafana-dashboard.yaml'), 'utf8'),
    );
  });

  it('has a panel for each thing a platform team watches, each with a query', () => {
    for (const panel of panels) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    const queries = panels.flatMap((panel) => panel.targets ?? []).map((t) => t.expr);
    for (const metric of [
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      'http_protocol_errors_total',
      'pet_store_operation_duration_seconds_count',
      'pet_store_errors_total',
      'http_requests_in_flight',
      'pet_store_calls_in_flight',
      'rate_limit_rejections_total',
      'auth_failures_total',
      'animal_store_database_up',
      'animal_store_build_info',
      'animal_store_config_info',
    ]) {
      expect(
        queries.some((query) => query.includes(`${metric}{`)),
        metric,
      ).toBe(true);
    }
    expect(queries.some((query) => query.includes('route="/readyz",status="503"'))).toBe(true);
  });

  describe('against Prometheus scraping the running API', () => {
    const work = mkdtempSync(join(tmpdir(), 'grafana-dashboard-'));
    let prometheus: LoggedProcess | undefined;
    let api: Awaited<ReturnType<typeof startApiProcess>> | undefined;
    let query: (expr: string) => Promise<{ status: string; error?: string; series: number }>;

    beforeAll(async () => {
      api = await startApiProcess({
        API_KEYS: KEY,
        RATE_LIMIT_REQUESTS: '20',
        RATE_LIMIT_WINDOW_SECONDS: '3600',
        // Only the second signal below ends the drain.
        DRAIN_DELAY_MS: '600000',
      });
      const { origin } = new URL(api.base);
      writeFileSync(
        join(work, 'prometheus.yml'),
        `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: ${JOB}\n    static_configs:\n      - targets: ['${new URL(origin).host}']\n`,
      );
      // A missing prometheus fails the test (Debian: apt-get install prometheus), never skips it.
      const port = await onFreePort(async (port) => {
        const started = spawnLogged('prometheus', [
          `--config.file=${join(work, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(work, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ]);
        prometheus = started;
        await waitUntil(started, 'prometheus', async () => {
          const ready = await fetch(`http://127.0.0.1:${port}/-/ready`).catch(() => undefined);
          return ready?.ok || undefined;
        });
        return port;
      });
      query = async (expr) => {
        const url = `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expr)}`;
        const body = (await (await fetch(url)).json()) as {
          status: string;
          error?: string;
          data?: { result: unknown[] };
        };
        return { status: body.status, error: body.error, series: body.data?.result.length ?? 0 };
      };

      // What the panels show: answers of each status, a create, a store miss, refused keys,
      // a rate limit, a request Node refuses, readiness answers, and a drain.
      const headers = { Authorization: `Bearer ${KEY}` };
      const json = { ...headers, 'Content-Type': 'application/json' };
      await fetch(`${api.base}/pets`, { headers });
      await fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': 'dashboard-1' },
        body: JSON.stringify({ name: 'Graph', categoryId: 1 }),
      });
      await fetch(`${api.base}/pets`, { method: 'POST', headers: json, body: '{"name":' });
      await fetch(`${api.base}/pets/999999`, { headers });
      await fetch(`${api.base}/nowhere`, { headers });
      await fetch(`${api.base}/pets`);
      await fetch(`${api.base}/pets`, { headers: { Authorization: 'Bearer not-a-key-0123456' } });
      let limited = 0;
      for (let sent = 0; sent < 40 && limited === 0; sent++) {
        if ((await fetch(`${api.base}/pets`, { headers })).status === 429) limited++;
      }
      expect(limited).toBe(1);
      await exchange(origin, ['NOT HTTP\r\n\r\n'], { end: true });
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      api.child.kill('SIGTERM');
      const deadline = Date.now() + 60_000;
      while ((await fetch(`${origin}/readyz`)).status !== 503) {
        if (Date.now() > deadline) throw new Error(`no drain: ${api.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }, 240_000);

    afterAll(async () => {
      if (api && api.child.exitCode === null) {
        // A second signal ends the drain.
        const exited = once(api.child, 'exit');
        api.child.kill('SIGINT');
        await exited;
      }
      await prometheus?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it("parses and returns series for every panel's query and every variable's", async () => {
      const queries = [
        ...panels.flatMap((panel) =>
          (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
        ),
        // label_values(SELECTOR, label) is Grafana's: Prometheus is asked for SELECTOR's series.
        ...dashboard.templating.list
          .filter((variable) => variable.definition?.startsWith('label_values('))
          .map((variable) => ({
            panel: `variable ${variable.name}`,
            expr: (variable.definition as string).replace(/^label_values\((.*), *\w+\)$/, '$1'),
          })),
      ];
      // Each rate needs two scrapes after what it counts: ask until every query has series.
      const deadline = Date.now() + 180_000;
      let empty: string[] = [];
      for (;;) {
        empty = [];
        for (const { panel, expr } of queries) {
          const answer = await query(filled(expr)).catch((error: Error) => ({
            status: 'unreachable',
            error: `${error.message}\n${prometheus?.output()}`,
            series: 0,
          }));
          // A query Prometheus cannot parse fails at once.
          expect({ panel, status: answer.status, error: answer.error }).toEqual({
            panel,
            status: 'success',
            error: undefined,
          });
          if (answer.series === 0) empty.push(`${panel}: ${expr}`);
        }
        if (empty.length === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      expect(empty).toEqual([]);
      expect(queries.length).toBeGreaterThan(25);
    });
  });
});
