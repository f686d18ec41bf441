#!/usr/bin/env node
/**
 * What Koa + @koa/router cost by themselves on this machine: the same JSON answer to
 * `GET /v1/pets/1` from bare `node:http`, from Koa + @koa/router through one `writeHead` (as the
 * API answers) and through `ctx.body` (Koa's own response path), with no work of our own.
 * Interleaved rounds, server CPU per request and req/s. The API cannot cost less over its
 * baseline than this difference.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { killAllChildren, startServerChild } from './children.js';
import { pinDriver, SERVER_CPU } from './compare.js';
import { type RunResult, saturate } from './driver.js';
import { describeMachine } from './report.js';
import { BENCH_API_KEY } from './scenario.js';
import { FLOOR_VARIANTS, type FloorVariant } from './servers/protocol.js';
import { median, round } from './stats.js';

/** One variant's medians over the rounds, and its CPU per request over bare node's. */
export interface FloorRow {
  variant: FloorVariant;
  rps: number;
  cpuUsPerRequest: number;
  /** Median of the per-round req/s ratios variant/node. */
  rpsRatio: number;
  /** CPU per request beyond bare node's, in microseconds. */
  extraCpuUs: number;
}

const LABELS: Record<FloorVariant, string> = {
  node: 'bare `node:http`',
  'koa-write': 'Koa + @koa/router, one `writeHead` (as the API answers)',
  'koa-body': "Koa + @koa/router, `ctx.body` (Koa's response path)",
};

const cpuUs = (run: RunResult) => (run.serverCpu / run.rps) * 1e6;

async function measure(
  variant: FloorVariant,
  options: { durationS: number; warmupS: number; pin: boolean },
): Promise<RunResult> {
  const server = await startServerChild(
    'floor',
    { store: { kind: 'memory' }, pets: 0, apiKey: BENCH_API_KEY },
    { cpu: options.pin ? SERVER_CPU : undefined, args: [variant] },
  );
  try {
    const requests = [{ method: 'GET' as const, path: '/v1/pets/1', headers: {} }];
    const load = { connections: 100, pipelining: 10, expectStatus: 200 };
    await saturate(server, requests, { ...load, durationS: options.warmupS, warmup: true });
    return await saturate(server, requests, { ...load, durationS: options.durationS });
  } finally {
    await server.stop();
  }
}

/** Runs `rounds` interleaved rounds of every variant and returns their medians. */
export async function measureFloor(options: {
  rounds: number;
  durationS: number;
  warmupS: number;
  pin: boolean;
  progress?: (line: string) => void;
}): Promise<FloorRow[]> {
  const runs = new Map<FloorVariant, RunResult[]>(FLOOR_VARIANTS.map((v) => [v, []]));
  for (let round = 0; round < options.rounds; round++) {
    // Alternate the order so drift over time hits every variant alike.
    const order = round % 2 === 0 ? FLOOR_VARIANTS : [...FLOOR_VARIANTS].reverse();
    for (const variant of order) {
      const run = await measure(variant, options);
      runs.get(variant)?.push(run);
      options.progress?.(
        `round ${round + 1}/${options.rounds}: ${variant} ${Math.round(run.rps)} req/s, ${cpuUs(run).toFixed(1)} µs CPU/req`,
      );
    }
  }
  const node = runs.get('node') ?? [];
  const nodeCpu = median(node.map(cpuUs));
  return FLOOR_VARIANTS.map((variant) => {
    const own = runs.get(variant) ?? [];
    const cpu = median(own.map(cpuUs));
    return {
      variant,
      rps: round(median(own.map((r) => r.rps)), 0),
      cpuUsPerRequest: round(cpu, 1),
      rpsRatio: round(median(own.map((r, i) => r.rps / (node[i]?.rps ?? Number.NaN))), 3),
      extraCpuUs: round(cpu - nodeCpu, 1),
    };
  });
}

/** The rows as a Markdown table. */
export function renderFloor(rows: readonly FloorRow[]): string {
  const lines = [
    '| server | req/s | CPU µs/req | req/s ratio to bare node | CPU µs/req over bare node |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${LABELS[r.variant]} | ${r.rps} | ${r.cpuUsPerRequest} | **${r.rpsRatio}** | ${r.extraCpuUs} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '2' },
      out: { type: 'string' },
    },
  });
  const numbers = [values.rounds, values.duration, values.warmup].map(Number);
  const [rounds = 0, durationS = 0, warmupS = 0] = numbers;
  if (!Number.isInteger(rounds) || rounds < 1 || !(durationS > 0) || !(warmupS > 0)) {
    process.stderr.write('usage: floor [--rounds N] [--duration S] [--warmup S] [--out FILE]\n');
    process.exitCode = 2;
    return;
  }
  const pin = pinDriver();
  const rows = await measureFloor({
    rounds,
    durationS,
    warmupS,
    pin,
    progress: (line) => process.stderr.write(`floor: ${line}\n`),
  });
  const machine = describeMachine();
  process.stdout.write(renderFloor(rows));
  if (values.out) {
    const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
    writeFileSync(
      out,
      `${JSON.stringify({ machine, pinned: pin, rounds, durationS, rows }, null, 2)}\n`,
    );
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`floor: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(killAllChildren);
