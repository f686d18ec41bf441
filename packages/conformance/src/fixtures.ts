import { randomBytes } from 'node:crypto';
import {
  LIMIT_MAX,
  PET_STATUSES,
  type PetStatus,
  type SpecPet,
  validateSpecPet,
} from '@animal-store/contract';
import type { HttpClient, HttpResponse } from './http/client.js';
import { integerText } from './http/json.js';

/**
 * How many pets a run creates at most on a server that accepts every valid body it is sent: the
 * samples, the bulk pets and the pets the createPet checks send (a store keeps them all, and a
 * second run on it stays complete as long as its pets stay within a list's reach).
 */
export const MAX_CREATED = 30;
/**
 * How many pets the bulk phase creates: with the samples, more than 10 pets to read back (a store
 * that loses one write in ten shows it), and on an empty store more than a default limit of 10.
 */
export const BULK_PETS = 8;
/** How many `createPet` requests the bulk phase keeps in flight. */
export const CREATE_CONCURRENCY = 8;

/**
 * A NewPet as the kit sends it (only well-formed bodies go through `Fixtures.create`);
 * `categoryId` is the exact integer text, so ids beyond 2^53 go out as given.
 */
export interface SentPet {
  readonly name: string;
  readonly categoryId: string;
  readonly status?: PetStatus;
}

/** The JSON text of a NewPet, with `categoryId` written as its exact integer text. */
export function newPetJson(pet: SentPet): string {
  const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`;
  return `{"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`;
}

/** What the kit puts into the pets it creates; see `ConformanceOptions`. */
export interface FixtureOptions {
  readonly runId: string;
  readonly readOnly: boolean;
  /** categoryIds that exist on the server, as exact integer text; used in turn. */
  readonly categoryIds: readonly string[];
  /** Starts every name, before the run id. */
  readonly namePrefix: string;
  /** How long to wait after a write before reading (servers whose reads lag writes). */
  readonly settleMs: number;
  readonly progress: (message: string) => void;
  /** The shape of every name (default `lower`); `findNameShape` looks for one the server takes. */
  readonly nameShape?: NameShape;
}

/**
 * The default name prefix: names are `cf<run id><n>`, lower-case letters only (the spec sets no
 * rule on names, so a server may allow letters alone).
 */
export const DEFAULT_NAME_PREFIX = 'cf';
/** Names the kit sends for pets it wants created are at most this long. */
export const NAME_MAX = 16;
/** Letters of a run id. */
const RUN_ID_LENGTH = 8;
/** Letters reserved for the counter in a name: room for 475 254 pets per run. */
const COUNTER_LETTERS = 4;
/** The longest `namePrefix` that keeps every name within `NAME_MAX`. */
export const NAME_PREFIX_MAX = NAME_MAX - RUN_ID_LENGTH - COUNTER_LETTERS;
/** What a name prefix may hold: what a strict server's name rule still takes. */
export const NAME_PREFIX_PATTERN = /^[a-z0-9-]*$/;

/**
 * Shapes of the names the kit gives its pets, tried in this order until the server accepts one
 * (the spec sets no rule on names, so a server may require any of them).
 */
export const NAME_SHAPES = {
  lower: (name: string) => name,
  capitalised: (name: string) => capitalise(name),
  upper: (name: string) => name.toUpperCase(),
  'lower-digits': (name: string) => `${name}1`,
  'capitalised-digits': (name: string) => `${capitalise(name)}1`,
  words: (name: string) => `${capitalise(name.slice(0, -2))} ${capitalise(name.slice(-2))}`,
} as const;
/** One of `NAME_SHAPES`: lower (`cfabcdefgha`), capitalised (`Cfabcdefgha`), ... */
export type NameShape = keyof typeof NAME_SHAPES;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One `createPet` the kit made, with what it sent and what came back. */
export interface Creation {
  readonly sent: SentPet;
  readonly response: HttpResponse;
  /** The created Pet, when the answer was a 2xx whose body validates as a Pet. */
  readonly pet?: SpecPet;
  /** The assigned id as an exact integer string, when there is a Pet. */
  readonly id?: string;
}

/** The sample pets: one per status, and one sent without a status. */
export interface Samples {
  readonly byStatus: ReadonlyMap<PetStatus, Creation>;
  readonly withoutStatus?: Creation;
  /** Every sample that was created, in creation order. */
  readonly pets: readonly (Creation & { readonly pet: SpecPet; readonly id: string })[];
}

/** A new run id: 8 random letters of `a`-`p` (4 bytes), carried in every name the run sends. */
export function newRunId(): string {
  return [...randomBytes(RUN_ID_LENGTH / 2).toString('hex')]
    .map((digit) => String.fromCharCode(0x61 + Number.parseInt(digit, 16)))
    .join('');
}

/** `n` (1 or more) in letters: a..z, aa..az, ba.. (bijective base 26), so names hold no digit. */
export function counterLetters(n: number): string {
  let out = '';
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    out = String.fromCharCode(0x61 + ((rest - 1) % 26)) + out;
  }
  return out;
}

/** The data a run creates and knows about: tagged with the run id, created once, shared. */
export class Fixtures {
  readonly namePrefix: string;
  /** Ids of every pet the server said it created for this run (2xx answers to `createPet`). */
  readonly createdIds = new Set<string>();
  /** How many `createPet` answers reported a created pet: the data changes with it. */
  creations = 0;
  /** An id the server assigned to two created pets, if it ever did. */
  duplicateId?: string;
  /** What the kit sent for each pet it created on purpose, by id. */
  readonly sentById = new Map<string, SentPet>();
  /** How many well-formed `createPet` requests the kit sent to make its pets, and how many got a 2xx. */
  readonly tally = { sent: 0, accepted: 0 };
  /** A lower bound on how many pets exist, once `ensureBulk` has run. */
  knownAtLeast = 0;
  /**
   * Whether the store held no pet before the run: the first list answered before any write
   * (the preflight's) was `200 []`; undefined until one is seen. On an empty store every pet
   * is the run's, so a list shorter than its limit can be judged whole.
   */
  emptyAtStart?: boolean;
  private writesSent = 0;
  readonly runId: string;
  readonly readOnly: boolean;
  /** The shape of the names the kit sends. */
  nameShape: NameShape;
  private counter = 0;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private samplesOnce?: Promise<Samples>;
  private bulkOnce?: Promise<void>;

  constructor(
    private readonly http: HttpClient,
    private readonly options: FixtureOptions,
  ) {
    this.runId = options.runId;
    this.readOnly = options.readOnly;
    this.namePrefix = `${options.namePrefix}${options.runId}`;
    this.nameShape = options.nameShape ?? 'lower';
  }

  /**
   * Tries one pet in each name shape until the server creates one, and keeps that shape. Returns
   * the shapes it tried with the name it sent in each, and whether one was taken (or the answers
   * cannot tell: no key, a server error); `found: false` means every shape was refused with a 4xx.
   */
  async findNameShape(): Promise<{ found: boolean; tried: string[] }> {
    const tried: string[] = [];
    for (const shape of Object.keys(NAME_SHAPES) as NameShape[]) {
      this.nameShape = shape;
      const body = this.nextPet('available');
      tried.push(`${shape} (${JSON.stringify(body.name)})`);
      const res = await this.http.send({
        method: 'POST',
        path: '/pets',
        rawBody: newPetJson(body),
      });
      const refused = res.status >= 400 && res.status <= 499 && ![401, 403].includes(res.status);
      if (!refused) {
        const id = integerText(res.body, 'id');
        if (res.status >= 200 && res.status <= 299 && id !== undefined) this.sentById.set(id, body);
        if (res.status >= 300) this.nameShape = 'lower';
        return { found: true, tried };
      }
    }
    this.nameShape = 'lower';
    return { found: false, tried };
  }

  /**
   * A fresh name tagged with the run id: `<prefix><runId><n>` with `n` in letters, at most
   * `NAME_MAX` characters.
   */
  nextName(): string {
    this.counter += 1;
    return NAME_SHAPES[this.nameShape](`${this.namePrefix}${counterLetters(this.counter)}`);
  }

  /** The next of the categoryIds the server knows, in turn. */
  nextCategoryId(): string {
    const { categoryIds } = this.options;
    return categoryIds[this.counter % categoryIds.length] as string;
  }

  /** A well-formed NewPet with a fresh name. */
  nextPet(status?: PetStatus): SentPet {
    const categoryId = this.nextCategoryId();
    const name = this.nextName();
    return status === undefined ? { name, categoryId } : { name, categoryId, status };
  }

  /** Notes that a request may have written data (reads wait `settleMs` after it). */
  wrote(): void {
    this.lastWriteAt = performance.now();
  }

  /** Waits until `settleMs` have passed since the last write: reads then see what was written. */
  async settled(): Promise<void> {
    const wait = this.lastWriteAt + this.options.settleMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Records any created pet an answer reports, including ones the server should have refused. */
  observe(response: HttpResponse): void {
    if (response.method === 'GET' && this.writesSent === 0 && this.emptyAtStart === undefined) {
      const plain = /^\/pets(\?limit=\d+)?$/.test(response.path);
      if (plain && response.status === 200 && Array.isArray(response.body)) {
        this.emptyAtStart = response.body.length === 0;
      }
    }
    if (response.method === 'POST') this.writesSent += 1;
    if (response.method !== 'POST' || !response.path.startsWith('/pets')) return;
    if (response.status < 200 || response.status > 299) return;
    const id = integerText(response.body, 'id');
    if (id === undefined) return;
    this.wrote();
    this.creations += 1;
    if (this.createdIds.has(id)) this.duplicateId ??= id;
    this.createdIds.add(id);
  }

  /** Sends a well-formed `createPet` and records what was sent; never throws on a bad answer. */
  async create(status?: PetStatus): Promise<Creation> {
    const body = this.nextPet(status);
    const response = await this.http.send({
      method: 'POST',
      path: '/pets',
      rawBody: newPetJson(body),
    });
    const creation: Creation = { sent: body, response };
    this.tally.sent += 1;
    if (response.status < 200 || response.status > 299) return creation;
    this.tally.accepted += 1;
    const checked = validateSpecPet(response.body);
    const id = integerText(response.body, 'id');
    if (!checked.ok || id === undefined) return creation;
    this.sentById.set(id, body);
    return { ...creation, pet: checked.value, id };
  }

  /** Creates the sample pets once: one per status, then one without a status. */
  samples(): Promise<Samples> {
    this.samplesOnce ??= this.createSamples();
    return this.samplesOnce;
  }

  /**
   * Creates the bulk pets once (`BULK_PETS`), with statuses spread evenly, and learns how many
   * pets exist at least.
   */
  ensureBulk(): Promise<void> {
    this.bulkOnce ??= this.createBulk();
    return this.bulkOnce;
  }

  private async createSamples(): Promise<Samples> {
    const byStatus = new Map<PetStatus, Creation>();
    if (this.readOnly) return { byStatus, pets: [] };
    this.options.progress(
      `creating ${PET_STATUSES.length + 1} sample pets named ${this.namePrefix}<n>`,
    );
    for (const status of PET_STATUSES) byStatus.set(status, await this.create(status));
    const withoutStatus = await this.create();
    const pets = [...byStatus.values(), withoutStatus].filter(
      (c): c is Creation & { pet: SpecPet; id: string } =>
        c.pet !== undefined && c.id !== undefined,
    );
    return { byStatus, withoutStatus, pets };
  }

  private async createBulk(): Promise<void> {
    await this.samples();
    const visible = new Set<string>();
    await this.settled();
    const listed = await this.http.send({ method: 'GET', path: `/pets?limit=${LIMIT_MAX}` });
    if (listed.status === 200 && Array.isArray(listed.body)) {
      for (const item of listed.body) {
        const id = integerText(item, 'id');
        if (id !== undefined) visible.add(id);
      }
    }
    if (!this.readOnly) {
      this.options.progress(
        `creating ${BULK_PETS} pets named ${this.namePrefix}<n>, to read back and to list`,
      );
      const statuses = Array.from(
        { length: BULK_PETS },
        (_, i) => PET_STATUSES[i % PET_STATUSES.length] as PetStatus,
      );
      for (let i = 0; i < statuses.length; i += CREATE_CONCURRENCY) {
        const batch = statuses.slice(i, i + CREATE_CONCURRENCY);
        const created = await Promise.all(batch.map((status) => this.create(status)));
        for (const c of created) if (c.id !== undefined) visible.add(c.id);
      }
    }
    this.knownAtLeast = visible.size;
  }
}
