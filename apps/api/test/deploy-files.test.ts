import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.js';
import { SHUTDOWN_MARGIN_MS } from '../src/shutdown.js';

const deploy = (path: string) => fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url));

/** Runs `command`; a missing command fails (never skips) the test. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; output: string }>((resolve, reject) => {
    execFile(
      command,
      args,
      { env: { PATH: `${process.env.PATH}:/usr/sbin:/sbin`, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
          reject(new Error(`${command} is not installed (Debian: apt-get install ${command})`));
          return;
        }
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ code: typeof code === 'number' ? code : 0, output: stdout + stderr });
      },
    );
  });
}

describe('the deployment files', () => {
  it('deploy/haproxy/haproxy.cfg is a valid haproxy configuration', async () => {
    const { code, output } = await run('haproxy', ['-c', '-f', deploy('haproxy/haproxy.cfg')], {
      HAPROXY_BIND: '127.0.0.1:8080',
      API_SERVER_1: '127.0.0.1:3001',
      API_SERVER_2: '127.0.0.1:3002',
      API_SERVER_3: '127.0.0.1:3003',
    });
    expect(output).toContain('Configuration file is valid');
    expect(code).toBe(0);
  });

  it('deploy/nginx/animal-store.conf is a valid nginx configuration', async () => {
    const prefix = mkdtempSync(join(tmpdir(), 'animal-store-nginx-'));
    const main = join(prefix, 'nginx.conf');
    writeFileSync(
      main,
      `pid ${join(prefix, 'nginx.pid')};\nerror_log stderr;\nevents {}\n` +
        `http { access_log off; include ${deploy('nginx/animal-store.conf')}; }\n`,
    );
    const { code, output } = await run('nginx', ['-t', '-p', prefix, '-c', main]).finally(() =>
      rmSync(prefix, { recursive: true, force: true }),
    );
    expect(output).toContain('test is successful');
    expect(code).toBe(0);
  });

  it('deploy/kubernetes/deployment.yaml gives a stop more time than it can take, and probes what each probe means', () => {
    const deployment = parse(readFileSync(deploy('kubernetes/deployment.yaml'), 'utf8'));
    const pod = deployment.spec.template.spec;
    const [api] = pod.containers;
    const env: Record<string, string> = Object.fromEntries(
      api.env.map((v: { name: string; value: string }) => [v.name, v.value]),
    );
    // Every variable is one the API reads (the secret files aside, which the Secret fills).
    const config = loadConfig(
      Object.fromEntries(Object.entries(env).filter(([name]) => !name.endsWith('_FILE'))),
    );
    expect(
      Object.keys(env)
        .filter((name) => name.endsWith('_FILE'))
        .sort(),
    ).toEqual(['API_KEYS_FILE', 'METRICS_TOKEN_FILE', 'MONGODB_URI_FILE']);
    const stopMs =
      api.lifecycle.preStop.sleep.seconds * 1000 +
      config.drainDelayMs +
      config.shutdownTimeoutMs +
      SHUTDOWN_MARGIN_MS;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(stopMs);
    expect(config.drainDelayMs).toBeGreaterThan(0);
    expect(api.readinessProbe.httpGet.path).toBe('/readyz');
    expect(api.livenessProbe.httpGet.path).toBe('/healthz');
    expect(api.startupProbe.httpGet.path).toBe('/healthz');
    expect(api.ports[0].containerPort).toBe(3000);
  });

  it('deploy/kubernetes/prometheusrule.yaml holds the groups of deploy/prometheus/rules.yml', () => {
    const rules = parse(readFileSync(deploy('prometheus/rules.yml'), 'utf8'));
    const wrapped = parse(readFileSync(deploy('kubernetes/prometheusrule.yaml'), 'utf8'));
    expect(wrapped.kind).toBe('PrometheusRule');
    expect(wrapped.spec.groups).toEqual(rules.groups);
  });

  it('deploy/kubernetes runs the image by digest, spread over nodes, with a budget for evictions', () => {
    const deployment = parse(readFileSync(deploy('kubernetes/deployment.yaml'), 'utf8'));
    const pod = deployment.spec.template;
    expect(pod.spec.containers[0].image).toMatch(/^[a-z0-9.-]+\/.+@sha256:[0-9a-f]{64}$/);
    const spread = pod.spec.topologySpreadConstraints.map(
      (c: { topologyKey: string }) => c.topologyKey,
    );
    expect(spread).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
    const pdb = parse(readFileSync(deploy('kubernetes/pdb.yaml'), 'utf8'));
    expect(pdb.spec.selector.matchLabels).toEqual(pod.metadata.labels);
    const hpa = parse(readFileSync(deploy('kubernetes/hpa.yaml'), 'utf8'));
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.scaleTargetRef.name).toBe(deployment.metadata.name);
    // The ServiceMonitor names the job the rules match, and sends the metrics token.
    const monitor = parse(readFileSync(deploy('kubernetes/servicemonitor.yaml'), 'utf8'));
    const service = parse(readFileSync(deploy('kubernetes/service.yaml'), 'utf8'));
    expect(service.metadata.labels[monitor.spec.jobLabel]).toBe('animal-store-api');
    expect(monitor.spec.endpoints[0].authorization.credentials.key).toBe('metrics-token');
  });
});
