import {
  type ServerChild,
  type ServerDef,
  type StartOptions,
  seed,
  startServer,
} from './servers.js';
import { round } from './stats.js';

/** The API's RSS per stored pet: what it grew by between two store sizes, each after a full GC. */
export interface RssPerPet {
  /** Pets in the store at the two readings. */
  pets: [number, number];
  rssMb: [number, number];
  bytesPerPet: number;
}

const GC_HOOK = new URL('./gc-on-signal.js', import.meta.url).href;

/** Has `server` collect its garbage (`gc-on-signal.ts`), then reads its RSS once it is idle. */
async function rssAfterGc(server: ServerChild, k: number): Promise<number> {
  server.signal('SIGUSR2');
  await server.stderrUntil(`bench: garbage collected ${k}\n`);
  await server.idle();
  return server.rssMb();
}

/**
 * Starts the API (`def`), creates `base` pets, then a tenth of `added` more, reads its RSS after a
 * full GC, creates the rest and reads it again: both readings follow the same burst of creates
 * (16 connections), so what the burst leaves (V8's young generation grown, buffers) is in both.
 */
export async function rssPerPet(
  def: ServerDef,
  base: number,
  added: number,
  options: StartOptions,
): Promise<RssPerPet> {
  const nodeArgs = ['--expose-gc', '--import', GC_HOOK];
  const server = await startServer({ ...def, nodeArgs }, options);
  try {
    const pets: [number, number] = [base + Math.round(added / 10), base + added];
    await seed(server.origin, 1, base);
    await seed(server.origin, base + 1, pets[0], 16);
    const first = await rssAfterGc(server, 1);
    await seed(server.origin, pets[0] + 1, pets[1], 16);
    const second = await rssAfterGc(server, 2);
    const bytes = ((second - first) * 2 ** 20) / (pets[1] - pets[0]);
    return { pets, rssMb: [round(first, 1), round(second, 1)], bytesPerPet: Math.round(bytes) };
  } finally {
    await server.stop();
  }
}
