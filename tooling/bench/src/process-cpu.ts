import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time a process has used, in seconds, summed over its threads' `schedstat` (the time
 * each has run, in nanoseconds). `/proc/PID/stat` counts in 10 ms clock ticks: at a fixed rate a
 * server answers a few hundred requests per round, and one tick is then a few percent of its CPU
 * time per request, a step as large as the differences the bench reports. A kernel without
 * scheduler statistics reports zeros there: this falls back to `/proc/PID/stat`.
 */
export function processCpuSeconds(pid: number): number {
  return SCHEDSTAT ? schedstatCpuSeconds(pid) : statCpuSeconds(pid);
}

/** The run time (ns, the first field) summed over `schedstat` texts, in seconds. */
export function sumSchedstat(texts: readonly string[]): number {
  let ns = 0;
  for (const text of texts) ns += Number(text.slice(0, text.indexOf(' ')));
  return ns / 1e9;
}

function schedstatCpuSeconds(pid: number): number {
  return sumSchedstat(threadsOf(pid, false).map((thread) => thread.schedstat));
}

/** A thread of a process: its id, its name (`comm`, when asked for) and its `schedstat` text. */
interface Thread {
  tid: number;
  name: string;
  schedstat: string;
}

/**
 * The threads of process `pid`. Their names cost a read each, so only `named` reads them: the
 * total, which the bench polls while it waits for a server to go idle, needs none.
 */
function threadsOf(pid: number, named: boolean): Thread[] {
  const threads: Thread[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const schedstat = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8');
      const name = named ? readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim() : '';
      threads.push({ tid: Number(task), name, schedstat });
    } catch {
      // The thread ended between the listing and the read: its time is no longer counted
      // anywhere per thread. Node's threads (libuv's pool, V8's workers) live as long as it.
    }
  }
  return threads;
}

/**
 * A Node process's CPU time by the kind of thread that spent it, in seconds: the main thread
 * (JavaScript, and the garbage collector's pauses), V8's helper threads (`V8Worker`: concurrent
 * and parallel garbage collection, background compilation), worker threads (`WorkerThread`, such
 * as the API's span exporter) and the rest (libuv's pool, the inspector, …).
 */
export interface ThreadCpu {
  main: number;
  v8: number;
  workers: number;
  other: number;
}

/** The kinds of thread, in the order the report names them. */
export const THREAD_KINDS = [
  'main',
  'v8',
  'workers',
  'other',
] as const satisfies readonly (keyof ThreadCpu)[];

/** A `ThreadCpu` of `value` for each kind. */
export function threadCpu(value: (kind: keyof ThreadCpu) => number): ThreadCpu {
  return { main: value('main'), v8: value('v8'), workers: value('workers'), other: value('other') };
}

/** The time of every kind together. */
export const totalOf = (cpu: ThreadCpu): number =>
  THREAD_KINDS.reduce((sum, kind) => sum + cpu[kind], 0);

/** The kind of a thread of process `pid`, by its id and name. */
export function threadKind(pid: number, tid: number, name: string): keyof ThreadCpu {
  if (tid === pid) return 'main';
  if (name.startsWith('V8Worker')) return 'v8';
  if (name === 'WorkerThread') return 'workers';
  return 'other';
}

/** `processCpuSeconds` by the kind of thread; undefined without scheduler statistics. */
export function processCpuByThread(pid: number): ThreadCpu | undefined {
  if (!SCHEDSTAT) return undefined;
  const cpu = threadCpu(() => 0);
  for (const { tid, name, schedstat } of threadsOf(pid, true)) {
    cpu[threadKind(pid, tid, name)] += sumSchedstat([schedstat]);
  }
  return cpu;
}

/**
 * The fields of `/proc/PID/stat` from the third (the state) on: those before it end with the
 * command name in parentheses, which may hold spaces. Index `n - 3` holds field `n`.
 */
export function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Utime + stime (fields 14 and 15 of /proc/PID/stat, in 1/100 s). */
function statCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// This process has run by the time it loads the module: zero means no scheduler statistics.
const SCHEDSTAT = (() => {
  try {
    return sumSchedstat([readFileSync('/proc/self/schedstat', 'utf8')]) > 0;
  } catch {
    return false;
  }
})();
