import { type ServerDef, startServerChild } from './children.js';
import { type Progress, throughputRounds } from './compare.js';
import { medianOf, type RunSummary, steady } from './driver.js';
import { ENDPOINTS, type EndpointId, GROWTH_ENDPOINTS } from './scenario.js';
import type { Settings } from './settings.js';
import { round } from './stats.js';

export interface GrowthPoint {
  pets: number;
  throughput: RunSummary;
  fixedRate: RunSummary & { rate: number };
  peakRssMb: number;
}

export interface GrowthSeries {
  endpoint: EndpointId;
  label: string;
  points: GrowthPoint[];
  /** Largest store over smallest: fixed-rate p50 and p99 latency, CPU per request. */
  rise: { p50: number; p99: number; cpuUsPerRequest: number };
}

/**
 * The API alone on the read endpoints, with the store at each size: throughput rounds, then a
 * run at one fixed rate per endpoint (`growthRateFraction` of its capacity at the smallest size),
 * the same for every size, so latency is compared at equal load.
 */
export async function growthRuns(
  settings: Settings,
  apiDef: ServerDef,
  progress: Progress,
): Promise<GrowthSeries[]> {
  const points = new Map<EndpointId, GrowthPoint[]>(GROWTH_ENDPOINTS.map((id) => [id, []]));
  const rates = new Map<EndpointId, number>();
  for (const pets of settings.growth) {
    progress(`growth: seeding ${pets} pets`);
    const api = await startServerChild(apiDef, { pets }, settings);
    try {
      const sized: [EndpointId, Omit<GrowthPoint, 'peakRssMb'>][] = [];
      for (const id of GROWTH_ENDPOINTS) {
        const { expectStatus, requests } = ENDPOINTS[id];
        const label = `growth ${pets} pets, ${ENDPOINTS[id].label}`;
        const runs = { settings, requests: requests(pets), expectStatus, label, progress };
        const rounds = await throughputRounds(runs, { api }, settings.growthRounds);
        const throughput = medianOf(rounds.map((r) => r.api));
        const rate =
          rates.get(id) ?? Math.max(1, Math.round(throughput.rps * settings.growthRateFraction));
        rates.set(id, rate);
        const load = { rate, connections: settings.connections, expectStatus, ...settings.measure };
        const fixed = await steady(api, runs.requests, load);
        sized.push([id, { pets, throughput, fixedRate: { ...fixed, rate } }]);
        progress(`${label}: at ${rate} req/s p50 ${fixed.p50Ms} ms, p99 ${fixed.p99Ms} ms`);
      }
      const peakRssMb = round(api.peakRssMb(), 1);
      for (const [id, point] of sized) points.get(id)?.push({ ...point, peakRssMb });
    } finally {
      await api.stop();
    }
  }
  return GROWTH_ENDPOINTS.map((id) => {
    const series = points.get(id) ?? [];
    const [first, last] = [series[0], series.at(-1)];
    const ratio = (pick: (p: GrowthPoint) => number) =>
      first && last ? round(pick(last) / pick(first), 2) : Number.NaN;
    return {
      endpoint: id,
      label: ENDPOINTS[id].label,
      points: series,
      rise: {
        p50: ratio((p) => p.fixedRate.p50Ms),
        p99: ratio((p) => p.fixedRate.p99Ms),
        cpuUsPerRequest: ratio((p) => p.throughput.cpuUsPerRequest),
      },
    };
  });
}
