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
import { quote } from './http/replay.js';

/**
 * How many pets a store needs for `limit=100` to be judged exactly: one more than the largest
 * limit. The kit tops a store up to this many when it holds fewer.
 */
export const STORE_TARGET = LIMIT_MAX + 1;
/**
 * How many pets the checks create at most on a server that accepts every valid body, besides the
 * pets that fill the store (`STORE_TARGET`): the name-shape probe, the spellings of accepted
 * bodies, the media types, the repeats, the boundary values the server may accept, the bodies
 * sent in pieces or with a chunked framing beyond the plain, and the creates with the key at
 * other spellings of the path (`/pets/`, `/PETS`, `//pets`, `/pets.json`, `/%70ets`,
 * `/pets;x=1`, `/V1/pets`, the target in absolute form), the pet
 * changes without a key are tried on, and a member named twice (three of the six: which value
 * a parser takes, the other case of each field is invalid).
 */
export const CHECK_PETS_MAX = 80;
/**
 * How many pets a run creates at most, on an empty store and a server that accepts every valid
 * body: the store filled to `STORE_TARGET` pets (the samples and the bulk pets among them), and
 * what the checks create besides. On a store that holds `STORE_TARGET` pets or more it creates
 * at most `SAMPLE_PETS + BULK_PETS + CHECK_PETS_MAX`.
 */
export const MAX_CREATED = STORE_TARGET + CHECK_PETS_MAX;
/** How many sample pets a run creates: one per status, and one without a status. */
export const SAMPLE_PETS = PET_STATUSES.length + 1;
/**
 * How many pets the bulk phase creates: with the samples, more than 10 pets to read back (a store
 * that loses one write in ten shows it), and on an empty store more than a default limit of 10.
 */
export const BULK_PETS = 8;
/**
 * The names of the pets that fill the store are this long when the server takes them (the spec
 * sets no limit), in letters beyond ASCII: a list of 100 of them is well above 16 KiB, so a
 * server that cuts long answers short shows it. A server that refuses them gets the next length,
 * then the kit's plain names.
 */
export const FILL_NAME_LENGTHS = [200, 64] as const;
/**
 * Letters beyond ASCII that fill long names, two and three bytes of UTF-8 each (Latin letters
 * with accents, CJK characters), unchanged by normalisation: 64 of them make a list of 100 pets
 * above 16 KiB.
 */
export const FILL_LETTERS = 'ñ猫é犬ü鳥';
/**
 * How many requests the bulk phase and the read-back keep in flight: no more connections than a
 * listen queue of 5 holds, the smallest in common use (Python's socketserver, under `wsgiref` and
 * `http.server`). A server that takes one connection at a time drops the SYN of each beyond it,
 * which then waits a second or more to be sent again.
 */
export const CREATE_CONCURRENCY = 5;

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
  /**
   * The most pets the run may create (`--max-pets`); the store is filled only as far as this
   * leaves the checks their own pets. Undefined: no cap.
   */
  readonly maxPets?: number;
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
   * Why the store holds fewer than `STORE_TARGET` pets after `ensureBulk` (a cap, refused
   * writes), for the limit checks that then cannot judge; undefined when it holds enough.
   */
  shortOfTarget?: string;
  /** The length of the names of the pets that fill the store (0: the kit's plain names). */
  fillNameLength = 0;
  /** How many pets with long names the run created to fill the store. */
  filled = 0;
  /** True when the server refused every long name the kit tried for the pets that fill it. */
  longNamesRefused = false;
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
      const sent = `${shape} (${JSON.stringify(body.name)})`;
      const res = await this.http.send({
        method: 'POST',
        path: '/pets',
        rawBody: newPetJson(body),
      });
      const refused = res.status >= 400 && res.status <= 499 && ![401, 403].includes(res.status);
      // A refusal says why in its Error's message, which names the server's rule.
      const said = (res.body as { message?: unknown } | null | undefined)?.message;
      const why = typeof said === 'string' ? ` ${quote(said)}` : '';
      tried.push(refused ? `${sent}: ${res.status}${why}` : sent);
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

  /** A well-formed NewPet with a fresh name (padded to `length` letters beyond ASCII, when given). */
  nextPet(status?: PetStatus, length = 0): SentPet {
    const categoryId = this.nextCategoryId();
    const name = length > 0 ? this.nextLongName(length) : this.nextName();
    return status === undefined ? { name, categoryId } : { name, categoryId, status };
  }

  /** A fresh name of the run padded to `length` with letters beyond ASCII, in the name shape. */
  nextLongName(length: number): string {
    this.counter += 1;
    const tagged = `${this.namePrefix}${counterLetters(this.counter)}`;
    const shaped = NAME_SHAPES[this.nameShape](tagged);
    const fill = FILL_LETTERS.repeat(Math.ceil(length / FILL_LETTERS.length));
    return NAME_SHAPES[this.nameShape](
      `${tagged}${fill}`.slice(0, tagged.length + length - shaped.length),
    );
  }

  /** How many more pets the run may create under `maxPets`, keeping the checks theirs. */
  private fillBudget(): number {
    const { maxPets } = this.options;
    if (maxPets === undefined) return Number.POSITIVE_INFINITY;
    return Math.max(0, maxPets - CHECK_PETS_MAX - this.creations);
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
    // `/pets` in any spelling (`/PETS`, `//pets`): the auth checks send creates there too.
    if (response.method !== 'POST' || !/^\/*pets/i.test(response.path)) return;
    if (response.status < 200 || response.status > 299) return;
    const id = integerText(response.body, 'id');
    if (id === undefined) return;
    this.wrote();
    this.creations += 1;
    if (this.createdIds.has(id)) this.duplicateId ??= id;
    this.createdIds.add(id);
  }

  /**
   * Sends a well-formed `createPet` and records what was sent; never throws on a bad answer. A
   * `probe` of a name padded to `nameLength` may be refused (the spec sets no limit on names, so
   * a server may set one): such a refusal is not counted among the writes the server refused.
   */
  async create(status?: PetStatus, nameLength = 0, probe = false): Promise<Creation> {
    const body = this.nextPet(status, nameLength);
    const response = await this.http.send({
      method: 'POST',
      path: '/pets',
      rawBody: newPetJson(body),
    });
    const creation: Creation = { sent: body, response };
    const accepted = response.status >= 200 && response.status <= 299;
    if (probe && !accepted && response.status < 500) return creation;
    this.tally.sent += 1;
    if (!accepted) return creation;
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
    for (const id of this.createdIds) visible.add(id);
    if (!this.readOnly) {
      this.options.progress(
        `creating ${BULK_PETS} pets named ${this.namePrefix}<n>, to read back and to list`,
      );
      await this.createMany(BULK_PETS, 0, visible);
      await this.fill(visible);
    }
    this.knownAtLeast = visible.size;
    if (visible.size < STORE_TARGET) {
      this.shortOfTarget ??= this.readOnly
        ? `the store shows ${visible.size} pets and a read-only run creates none`
        : `the store shows ${visible.size} pets and the run could create no more`;
    }
  }

  /**
   * Tops the store up to `STORE_TARGET` pets when it shows fewer, within `maxPets`: their names
   * are as long as the server takes (`FILL_NAME_LENGTHS`), so that lists of them are large.
   */
  private async fill(visible: Set<string>): Promise<void> {
    const wanted = STORE_TARGET - visible.size;
    if (wanted <= 0) return;
    const budget = this.fillBudget();
    if (budget < wanted) {
      this.shortOfTarget = `--max-pets ${this.options.maxPets} leaves the run ${budget} of the ${wanted} pets that would bring the store (${visible.size} pets) to ${STORE_TARGET}`;
    }
    let left = Math.min(wanted, budget);
    if (left <= 0) return;
    this.options.progress(
      `creating up to ${left} pets named ${this.namePrefix}<n>..., to bring the store to ${STORE_TARGET} pets`,
    );
    // The longest name the server takes, tried on the first pets.
    for (const length of FILL_NAME_LENGTHS) {
      if (left <= 0) break;
      const probe = await this.create(PET_STATUSES[left % PET_STATUSES.length], length, true);
      if (probe.id !== undefined) {
        visible.add(probe.id);
        left -= 1;
        this.filled += 1;
        this.fillNameLength = length;
        break;
      }
    }
    this.longNamesRefused = this.fillNameLength === 0;
    await this.createMany(left, this.fillNameLength, visible);
  }

  /** Creates `count` pets, `CREATE_CONCURRENCY` at a time, statuses in turn; adds their ids. */
  private async createMany(count: number, nameLength: number, visible: Set<string>) {
    const statuses = Array.from(
      { length: count },
      (_, i) => PET_STATUSES[i % PET_STATUSES.length] as PetStatus,
    );
    for (let i = 0; i < statuses.length; i += CREATE_CONCURRENCY) {
      const batch = statuses.slice(i, i + CREATE_CONCURRENCY);
      const created = await Promise.all(batch.map((status) => this.create(status, nameLength)));
      for (const c of created) if (c.id !== undefined) visible.add(c.id);
      if (nameLength > 0) this.filled += created.filter((c) => c.id !== undefined).length;
    }
  }
}
