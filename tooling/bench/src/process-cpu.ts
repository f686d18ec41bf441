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
  const texts: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      texts.push(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8'));
    } catch {
      // The thread ended between the listing and the read: its time is no longer counted
      // anywhere per thread. Node's threads (libuv's pool, V8's workers) live as long as it.
    }
  }
  return sumSchedstat(texts);
}

/** Utime + stime (fields 14 and 15 of /proc/PID/stat, in 1/100 s). */
function statCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
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
