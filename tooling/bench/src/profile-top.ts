#!/usr/bin/env node
/**
 * Prints the functions with the most self time (idle excluded) in V8 CPU profiles (`--cpu-prof`
 * output), merged:
 * `node dist/profile-top.js results/profiles/*.cpuprofile [--top N] [--owners]` (`--owners` sums
 * by package: koa, pino, node core, our code …).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  name: string;
  where: string;
  ms: number;
  share: number;
}

/** Self time per function (name + file + line), largest first. */
export function selfTimes(profiles: readonly CpuProfile[]): SelfTime[] {
  const totals = new Map<string, { name: string; where: string; ms: number }>();
  let all = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const node = byId.get(samples[i] as number);
      if (!node) continue;
      const ms = (deltas[i] ?? 0) / 1000;
      const { functionName, url, lineNumber } = node.callFrame;
      // Time the process waited for work says nothing about where its work goes.
      if (functionName === '(idle)') continue;
      const file = url
        .replace(/^file:\/\//, '')
        .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '');
      const where = file === '' ? '' : `${file}:${lineNumber + 1}`;
      const key = `${functionName}@${where}`;
      const entry = totals.get(key) ?? { name: functionName || '(anonymous)', where, ms: 0 };
      entry.ms += ms;
      totals.set(key, entry);
      all += ms;
    }
  }
  return [...totals.values()]
    .map((entry) => ({ ...entry, share: all === 0 ? 0 : entry.ms / all }))
    .sort((a, b) => b.ms - a.ms);
}

/** Who a function belongs to: a package, node core, our own code, or the engine (native). */
export function ownerOf(entry: Pick<SelfTime, 'name' | 'where'>): string {
  const { where } = entry;
  if (where === '') return `native: ${entry.name}`;
  if (where.startsWith('node:')) return 'node core';
  const ours = /\/(apps|packages|tooling)\/([^/]+)\//.exec(where);
  if (ours) return `ours: ${ours[1]}/${ours[2]}`;
  const parts = where.split('/');
  return (parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]) ?? where;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' }, owners: { type: 'boolean' } },
  });
  if (positionals.length === 0) {
    process.stderr.write('usage: profile-top FILE.cpuprofile... [--top N]\n');
    process.exitCode = 2;
    return;
  }
  // Piped into `head`: the reader leaving early is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const profiles = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  let entries = selfTimes(profiles);
  if (values.owners) {
    const owners = new Map<string, SelfTime>();
    for (const entry of entries) {
      const owner = ownerOf(entry);
      const sum = owners.get(owner) ?? { name: owner, where: '', ms: 0, share: 0 };
      sum.ms += entry.ms;
      sum.share += entry.share;
      owners.set(owner, sum);
    }
    entries = [...owners.values()].sort((a, b) => b.ms - a.ms);
  }
  for (const entry of entries.slice(0, Number(values.top ?? 30))) {
    process.stdout.write(
      `${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.ms.toFixed(0).padStart(7)} ms  ${entry.name}  ${entry.where}\n`,
    );
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) main();
