// Three API processes behind the shipped haproxy, restarted one at a time as the runbook says.
import { once } from 'node:events';
import { onFreePort } from '@animal-store/test-support';
import { expect } from 'vitest';
import { startHaproxy } from './balancers.js';
import { type ApiProcess, startApiProcess } from './processes.js';

/** Three processes in the balancer's rotation. */
export interface Rotation {
  readonly apis: ApiProcess[];
  /** Through the balancer, ending in `/v1`. */
  readonly base: string;
  /**
   * Stops process `index` (SIGTERM: it drains, then exits 0) and starts it again on its port,
   * until the balancer has it back.
   */
  restart(index: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many health checks (`GET /readyz`) a process has answered 200. */
const readyChecks = (api: ApiProcess) =>
  [...api.stdout().matchAll(/"route":"\/readyz","status":200/g)].length;

/** Waits until the balancer has seen `api` ready (its `rise`: 2 checks), however long it takes. */
async function untilInRotation(api: ApiProcess): Promise<void> {
  while (readyChecks(api) < 3) await sleep(100);
}

/**
 * Starts three API processes with `env`, each as deploy/haproxy/haproxy.cfg's header says to run
 * it, and the shipped haproxy in front of them; stopped after the file's tests.
 */
export async function startRotation(env: Record<string, string>): Promise<Rotation> {
  const start = (port: number) =>
    startApiProcess({
      ...env,
      PORT: String(port),
      DRAIN_DELAY_MS: '5000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
      // The balancer's health checks are logged, so the test sees when a process is back.
      OBSERVE_PROBES: 'true',
    });
  const apis: ApiProcess[] = [];
  const ports: number[] = [];
  // One after the other: the first creates the collections and indexes; the others start on them.
  for (let n = 0; n < 3; n++) {
    const started = await onFreePort(async (port) => ({ port, api: await start(port) }));
    apis.push(started.api);
    ports.push(started.port);
  }
  const [one, two, three] = ports.map((port) => `127.0.0.1:${port}`) as [string, string, string];
  const haproxy = await startHaproxy(one, two, three);
  // A haproxy that exits before the processes are in its rotation fails the start.
  let inRotation = false;
  const failed = haproxy.exited.then(() => {
    if (!inRotation) throw new Error(`haproxy exited: ${haproxy.output()}`);
  });
  await Promise.race([Promise.all(apis.map(untilInRotation)), failed]);
  inRotation = true;
  return {
    apis,
    base: `${haproxy.origin}/v1`,
    async restart(index) {
      const old = apis[index] as ApiProcess;
      old.child.kill('SIGTERM');
      const [code] = await once(old.child, 'exit');
      expect(code).toBe(0);
      const fresh = await start(ports[index] as number);
      apis[index] = fresh;
      await untilInRotation(fresh);
    },
  };
}
