// The rules traffic the kit did not send is held to: the kit's own oracles and checks wherever
// they judge an answer without sending anything, and the cross-answer rules the spec gives such
// traffic (a list holds at most its limit and only its status; a pet shown again is shown alike,
// which is advised, as the spec has operations it does not show).
import {
  GET_PET_SUNSET_AT,
  ID_MAX,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PET_STATUSES,
} from '@animal-store/contract';
import { CheckContext } from '../context.js';
import type { Fixtures } from '../fixtures.js';
import { BEARER_TOKEN, type HttpResponse, mediaTypeOf } from '../http/client.js';
import { canonicalInteger, integerText } from '../http/json.js';
import { quote } from '../http/replay.js';
import { plainLimit } from '../list-limit.js';
import {
  ANSWER_ORACLES,
  isInt64Text,
  isJsonMediaType,
  isKeyedSuccess,
  notJsonReason,
  PetModel,
  petProblem,
  routeOf,
  sameName,
} from '../oracles.js';
import { CHECKS } from '../sections/index.js';
import { CheckFailed, CheckSkipped } from '../sections/support.js';
import type { Check, Group, Level } from '../types.js';
import type { Exchange } from './exchange.js';
import { isSoundRead, KEYLESS_SHAPES, keylessShapeOf } from './keyless.js';
import { BODY_PROBLEM_CHECKS, type BodyProblem, newPetBodyProblem } from './new-pet-body.js';

/** What a rule says of one exchange: nothing (`NOT_JUDGED`), that it holds (undefined), or why not. */
export const NOT_JUDGED = Symbol('not judged');
export type Judgment = string | undefined | typeof NOT_JUDGED;

/** One rule traffic is held to, reported as a check of the kit. */
export interface TrafficRule {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly level: Level;
  readonly group: Group;
  /** What the traffic needs to hold for the rule to judge it (said of a rule it did not exercise). */
  readonly needs: string;
  /** True when the rule reads answers' bodies: exchanges recorded without one are left alone. */
  readonly readsBody: boolean;
  /**
   * True when the rule reads whether a request carried `Authorization`: a recording that kept
   * that header nowhere (a sanitized HAR) is left alone.
   */
  readonly readsKeys?: boolean;
  /** The rule on one exchange, in arrival order; `state` is shared by every exchange of a run. */
  judge(ex: Exchange, state: TrafficState): Judgment | Promise<Judgment>;
}

/**
 * An `Authorization` value as RFC 9110 §11.4 writes credentials: a scheme, then a token68 or
 * auth-params (`Bearer abc`, `Basic dXNlcg==`, `Digest username="u"`, a scheme alone).
 */
const CREDENTIALS =
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?: +(?:[0-9A-Za-z._~+/-]+=*|[!#$%&'*+.^_`|~0-9A-Za-z-]+ *=.*))?$/;

/** What the rules learn of the pets one key sees. */
interface KeyModels {
  readonly created: PetModel;
  readonly seen: SeenPets;
  /**
   * The ids created answers gave so far: where, the request's `Idempotency-Key` (a repeat of
   * that key may be answered with the first create's pet), and the pet the answer showed.
   */
  readonly ids: Map<string, { where: string; idempotencyKey: string | null; pet: ShownPet }>;
}

/** What the rules learn across the exchanges of one run. */
export class TrafficState {
  /**
   * Set once the traffic holds a request that may change pets in a way it does not show
   * (`mayChangePets`): the rules across answers stop judging there.
   */
  changedBy: string | undefined;
  /**
   * `settleMs`: how long a write may take to show in reads (`--settle-ms`); `headersAsSent`:
   * the recorder kept every request's header lines as sent (`TrafficJudgeOptions`).
   */
  constructor(
    private readonly settleMs = 0,
    readonly headersAsSent = false,
  ) {}

  /** Per `Authorization` value: what a key sees may differ from what another sees. */
  private readonly models = new Map<string, KeyModels>();

  /**
   * The models of the key `ex` carried; undefined when its `Authorization` is no credentials
   * (a sanitizer's placeholder, such as `[REDACTED]`): it hides which key that was, and one
   * placeholder for every key would make one model of stores that may differ.
   */
  modelsOf(ex: Exchange): KeyModels | undefined {
    const key = ex.authorization ?? '';
    if (key !== '' && !CREDENTIALS.test(key)) return undefined;
    let found = this.models.get(key);
    if (found === undefined) {
      found = { created: new PetModel(this.settleMs), seen: new SeenPets(), ids: new Map() };
      this.models.set(key, found);
    }
    return found;
  }
}

/** What the traffic showed of one pet first, and where. */
interface SeenPet {
  readonly name: string;
  readonly categoryId: string | undefined;
  status: string | undefined;
  readonly where: string;
  statusWhere: string;
}

/** Every pet the traffic showed, by id: every later answer about it must agree (spec §2, §3). */
export class SeenPets {
  private readonly pets = new Map<string, SeenPet>();

  /** Why `res` shows a pet unlike an earlier answer did (undefined: agrees); NOT_JUDGED: shows none seen before. */
  judge(res: HttpResponse): Judgment {
    const shown = petsShown(res);
    let judged = false;
    for (const pet of shown) {
      const id = integerText(pet, 'id') as string;
      const where = `${res.method} ${res.path}`;
      const categoryId = integerText(pet, 'categoryId');
      const name = (pet as { name: string }).name;
      const status = (pet as { status?: unknown }).status;
      const known = this.pets.get(id);
      if (known === undefined) {
        this.pets.set(id, {
          name,
          categoryId,
          status: typeof status === 'string' ? status : undefined,
          where,
          statusWhere: where,
        });
        continue;
      }
      judged = true;
      if (name !== known.name) {
        return `pet ${id} has name ${quote(name)}, but ${known.where} showed ${quote(known.name)}`;
      }
      if (categoryId !== known.categoryId) {
        return `pet ${id} has categoryId ${categoryId}, but ${known.where} showed ${known.categoryId}`;
      }
      if (typeof status !== 'string') continue;
      if (known.status === undefined) {
        known.status = status;
        known.statusWhere = where;
      } else if (status !== known.status) {
        return `pet ${id} has status "${status}", but ${known.statusWhere} showed "${known.status}" (no operation the spec shows changes a status, §3)`;
      }
    }
    return judged ? undefined : NOT_JUDGED;
  }
}

/** The Pets an answer shows: a 2xx createPet body, a 200 getPet body, the items of a 200 list. */
function petsShown(res: HttpResponse): unknown[] {
  const route = routeOf(res);
  const items =
    route.op === 'listPets' && res.status === 200 && Array.isArray(res.body)
      ? res.body
      : (route.op === 'createPet' && res.status >= 200 && res.status <= 299) ||
          (route.op === 'getPet' && res.status === 200)
        ? [res.body]
        : [];
  return items.filter((item) => petProblem(item) === undefined && integerText(item, 'id'));
}

/**
 * The most pets a list answer may hold: its limit when the request gave it once, written plainly
 * within 1..100 (`plainLimit`), the default when not at all; given more than once, each so, the
 * largest of them and the default (a server may read the first, the last, or neither). Undefined
 * for any other limit.
 */
function limitOf(query: URLSearchParams): number | undefined {
  const limits = query.getAll('limit').map(plainLimit);
  if (!limits.every((limit) => limit !== undefined)) return undefined;
  // None given: the default alone.
  return limits.length === 1 ? (limits[0] as number) : Math.max(LIMIT_DEFAULT, ...limits);
}

/** A 200 listPets answer with a JSON array, its query; undefined for any other exchange. */
function listAnswer(res: HttpResponse): URLSearchParams | undefined {
  const route = routeOf(res);
  if (route.op !== 'listPets' || res.status !== 200 || !Array.isArray(res.body)) return undefined;
  return route.query;
}

/** A kit check by id (its title, section, level and group come from the kit's registry). */
function kitCheck(id: string): Check {
  const found = CHECKS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`the kit has no check ${id}`);
  return found;
}

/** A rule that reports under a check of the kit, with its title, section and level. */
function asKitCheck(
  id: string,
  rest: Pick<TrafficRule, 'needs' | 'readsBody' | 'readsKeys' | 'judge'>,
): TrafficRule {
  const { title, section, level, group } = kitCheck(id);
  return { id, title, section, level, group, ...rest };
}

/** The answers an oracle speaks of, to tell a rule exercised from one not. */
interface OracleScope {
  readonly needs: string;
  readonly applies: (res: HttpResponse) => boolean;
}

/** What the oracles that read an Error body speak of. */
const JSON_ERROR_ANSWERS: OracleScope = {
  needs: 'an error answer with a JSON body',
  applies: (res) => res.status >= 400 && notJsonReason(res) === undefined,
};

/** Successes to requests that carried Authorization. */
const KEYED_SUCCESSES: OracleScope = {
  needs: 'a success (2xx) to a request with Authorization',
  applies: isKeyedSuccess,
};

/** Which answers each oracle of the kit speaks of. */
const ORACLE_SCOPE: Readonly<Record<string, OracleScope>> = {
  'errors.strict-json': {
    needs: 'an answer with a JSON Content-Type and a body',
    applies: (res) => isJsonMediaType(res.mediaType) && (res.bytes?.length ?? 0) > 0,
  },
  'errors.pet-fields': {
    needs: 'a success of an operation that carries Pets',
    applies: (res) => {
      const { op } = routeOf(res);
      return op === 'createPet' ? res.status >= 200 && res.status <= 299 : res.status === 200;
    },
  },
  'errors.unique-member-names': {
    needs: 'an answer with a JSON body',
    applies: (res) => notJsonReason(res) === undefined,
  },
  'errors.json-charset': {
    needs: 'an answer with a JSON Content-Type',
    applies: (res) => isJsonMediaType(res.mediaType),
  },
  'errors.integers-written-plainly': {
    needs: 'an answer with a JSON Pet or Error',
    applies: (res) => res.status >= 400 || (res.status >= 200 && res.status <= 299),
  },
  'errors.keyed-answers-private': KEYED_SUCCESSES,
  'errors.json-body': { needs: 'an error answer (4xx, 5xx)', applies: (res) => res.status >= 400 },
  'errors.error-schema': JSON_ERROR_ANSWERS,
  'errors.status-matches': JSON_ERROR_ANSWERS,
  'errors.error-not-empty': JSON_ERROR_ANSWERS,
  'errors.success-status': {
    needs: 'a success (2xx)',
    applies: (res) => res.status >= 200 && res.status <= 299,
  },
  'errors.no-server-errors': { needs: 'an answer of an operation', applies: () => true },
};

/**
 * Rules that read no body, only the status and header lines: they judge exchanges recorded
 * without one too (a recorder that leaves bodies out, a coding the kit cannot undo).
 */
const STATUS_ONLY = new Set([
  'errors.success-status',
  'errors.no-server-errors',
  'errors.json-charset',
  'errors.keyed-answers-private',
]);

/** Each oracle of the kit that judges every answer alone. */
const oracleRules: TrafficRule[] = ANSWER_ORACLES.map((oracle) => {
  const scope = ORACLE_SCOPE[oracle.id] ?? {
    needs: 'an answer of an operation',
    applies: () => true,
  };
  return asKitCheck(oracle.id, {
    needs: scope.needs,
    readsBody: !STATUS_ONLY.has(oracle.id),
    judge: (ex) => (scope.applies(ex.res) ? oracle.judge(ex.res) : NOT_JUDGED),
  });
});

/** Answers shown to a check of the kit as if its run had received them; it may send nothing. */
class TrafficContext extends CheckContext {
  constructor(responses: readonly HttpResponse[]) {
    super(
      undefined as never,
      { createdIds: new Set(), creations: 0 } as unknown as Fixtures,
      true,
      '',
      0,
    );
    this.responses.push(...responses);
    // What the getPet checks would fetch themselves: the traffic holds the answers.
    void this.memo('getPet target', async () => undefined);
    void this.memo('errors: provoke', async () => undefined);
  }

  override send(): Promise<HttpResponse> {
    return Promise.reject(new CheckSkipped('judging traffic, the kit sends nothing'));
  }

  override list(): Promise<HttpResponse> {
    const [first] = this.responses;
    return first === undefined
      ? Promise.reject(new CheckSkipped('no answer'))
      : Promise.resolve(first);
  }
}

/** A check of the kit that reads answers only, run on each exchange it speaks of. */
function answerCheck(
  id: string,
  needs: string,
  applies: (res: HttpResponse) => boolean,
): TrafficRule {
  const check = kitCheck(id);
  return asKitCheck(id, {
    needs,
    readsBody: false,
    async judge(ex) {
      if (!applies(ex.res)) return NOT_JUDGED;
      try {
        const verdict = await check.run(new TrafficContext([ex.res]));
        return verdict.outcome === 'pass' ? undefined : NOT_JUDGED;
      } catch (error) {
        if (error instanceof CheckFailed) return error.message;
        if (error instanceof CheckSkipped) return NOT_JUDGED;
        throw error;
      }
    },
  });
}

/**
 * A getPet answer: a `200`, or a `404` to a petId that is an int64 (§4.3). A `404` to a petId
 * that is none (`9;v=1`, `abc`) may be a router's, which never reached the operation.
 */
const getPetAnswered = (res: HttpResponse) => {
  const route = routeOf(res);
  if (route.op !== 'getPet') return false;
  if (res.status === 200) return true;
  return res.status === 404 && isInt64Text(route.petId);
};

/** A getPet answer that found its pet: what the run holds the deprecation's presence to. */
const getPetFound = (res: HttpResponse) => routeOf(res).op === 'getPet' && res.status === 200;

/**
 * The deprecation headers of getPet and their dates (spec §4.3, §9): the kit's own checks. Their
 * values are judged wherever a getPet answer has them; their presence on a pet found, as in the
 * run, where a server that announces the deprecation on its pets alone, not on its 404s, is
 * advised nothing.
 */
const deprecationRules: TrafficRule[] = (
  [
    ['getPet.sunset-day', 'a getPet answer (200 or 404) with a readable Sunset', getPetAnswered],
    ['getPet.sunset-date', 'a getPet answer (200 or 404) with Sunset', getPetAnswered],
    ['getPet.deprecation-date', 'a getPet answer (200 or 404) with Deprecation', getPetAnswered],
    [
      'getPet.sunset-after-deprecation',
      'a getPet answer with both Sunset and Deprecation',
      getPetAnswered,
    ],
    ['getPet.deprecation-headers', 'a getPet answer that found its pet (200)', getPetFound],
    ['getPet.successor-link', 'a getPet answer that found its pet (200)', getPetFound],
  ] as const
).map(([id, needs, applies]) => answerCheck(id, needs, applies));

/** When an exchange was sent, in words for a message: its place in the recording's clock. */
function describedAt(ex: Exchange): string {
  return `at ${new Date(ex.recorded.sentAt).toISOString()}`;
}

const otherOperation = (res: HttpResponse) => {
  const { op } = routeOf(res);
  return op === 'listPets' || op === 'createPet';
};

/** A created pet's name, categoryId and status as a create's answer shows them. */
interface ShownPet {
  readonly name: unknown;
  readonly categoryId: string | undefined;
  readonly status: unknown;
}

function shownPet(body: unknown): ShownPet {
  const { name, status } = body as { name?: unknown; status?: unknown };
  return { name, categoryId: integerText(body, 'categoryId'), status };
}

/**
 * What tells `b` from `a` as another pet, or undefined when both may be one pet shown twice, as
 * the model of created pets reads it: a name the same but for NFC or NFKC normalisation, a
 * status left out of one (the spec gives no default), and nothing but a conflicting value.
 */
function otherPet(a: ShownPet, b: ShownPet): string | undefined {
  const named = typeof a.name === 'string' ? sameName(b.name, a.name) : a.name === b.name;
  if (!named && !(typeof b.name === 'string' && sameName(a.name, b.name))) {
    return `name ${JSON.stringify(b.name)} after ${JSON.stringify(a.name)}`;
  }
  if (a.categoryId !== b.categoryId) return `categoryId ${b.categoryId} after ${a.categoryId}`;
  if (a.status !== undefined && b.status !== undefined && a.status !== b.status) {
    return `status ${JSON.stringify(b.status)} after ${JSON.stringify(a.status)}`;
  }
  return undefined;
}

/** True once a request that may change pets passed: the cross-answer rules then stop. */
function changed(state: TrafficState): boolean {
  return state.changedBy !== undefined;
}

/**
 * What the model of the pets created in the traffic makes of a read (a pet not found, shown
 * otherwise than sent, listed under another status or missing from a short list); a create
 * only teaches it the pet, as its 201 body is `errors.created-pets-agree`'s.
 */
function keptJudgment(res: HttpResponse, model: PetModel): Judgment {
  const { op } = routeOf(res);
  if (op === 'createPet') {
    model.judge(res);
    return NOT_JUDGED;
  }
  if ((op !== 'getPet' && op !== 'listPets') || model.pets.size === 0) return NOT_JUDGED;
  return model.judge(res);
}

/** The rules across answers: the same pet everywhere, lists within their limit and status. */
const crossRules: TrafficRule[] = [
  asKitCheck('errors.created-pets-agree', {
    needs: 'a pet created (2xx to createPet)',
    readsBody: true,
    // In traffic only the 201 body answers for the NewPet sent, whatever came before or after
    // it: later reads may show another operation's or another client's change (errors.same-pet).
    judge(ex) {
      const { res } = ex;
      if (routeOf(res).op !== 'createPet' || res.status < 200 || res.status > 299) {
        return NOT_JUDGED;
      }
      return new PetModel().judge(res);
    },
  }),
  asKitCheck('createPet.distinct-ids', {
    needs:
      'two pets created (2xx to createPet) with the same key, with no request between them that may change pets',
    readsBody: true,
    // Every create gives a new id (§2: assigned by the service, unique); a second create with the
    // first one's Idempotency-Key may be answered with its pet (the same name, categoryId and
    // status: a replay; another pet under that id is two pets with one id), and a delete (which
    // the traffic may hold, `changed`) may free an id.
    judge(ex, state) {
      const { res } = ex;
      if (routeOf(res).op !== 'createPet' || res.status < 200 || res.status > 299) {
        return NOT_JUDGED;
      }
      const id = integerText(res.body, 'id');
      const ids = state.modelsOf(ex)?.ids;
      if (id === undefined || ids === undefined || changed(state)) return NOT_JUDGED;
      const idempotencyKey = ex.requestHeaders.get('idempotency-key');
      const earlier = ids.get(id);
      const pet = shownPet(res.body);
      ids.set(id, {
        where: `the create answered ${res.status} ${describedAt(ex)}`,
        idempotencyKey,
        pet,
      });
      if (earlier === undefined) return ids.size > 1 ? undefined : NOT_JUDGED;
      const replay = idempotencyKey !== null && idempotencyKey === earlier.idempotencyKey;
      const other = otherPet(earlier.pet, pet);
      if (replay && other === undefined) return undefined;
      const why = replay ? ` under the same Idempotency-Key, showing another pet (${other})` : '';
      return `id ${id} was assigned to two created pets: ${earlier.where} gave it too${why}`;
    },
  }),
  {
    id: 'errors.same-pet',
    // Advised, never failed: the spec shows no operation that changes a pet, but has some it
    // does not show (§4: update and delete), and another client's requests are not in the traffic.
    title:
      'every answer that shows a pet (a 201 body, getPet, each list entry) agrees with every earlier one on its name, categoryId and status, and a pet created in the traffic is found by later reads, as it was sent: no operation the spec shows changes a pet (advisory: it has others, and another client may use them)',
    section: '§2, §3, §4',
    level: 'should',
    group: 'errors',
    needs:
      'a pet id shown twice, or a pet created and read again, with the same key (a placeholder a sanitizer put in its place is none)',
    readsBody: true,
    judge(ex, state) {
      if (changed(state)) return NOT_JUDGED;
      const models = state.modelsOf(ex);
      if (models === undefined) return NOT_JUDGED;
      const seen = models.seen.judge(ex.res);
      const kept = keptJudgment(ex.res, models.created);
      if (typeof seen === 'string') return seen;
      if (typeof kept === 'string') return kept;
      return seen === undefined || kept === undefined ? undefined : NOT_JUDGED;
    },
  },
  {
    id: 'listPets.at-most-limit',
    title: `every list holds at most its limit of pets (${LIMIT_DEFAULT} when limit is absent and no parameter but status is given; given twice, the larger of its values and ${LIMIT_DEFAULT})`,
    section: '§4.1, §8',
    level: 'must',
    group: 'listPets',
    needs: `a 200 list (limit absent and no parameter but status, or each limit given written plainly within ${LIMIT_MIN}..${LIMIT_MAX})`,
    readsBody: true,
    judge(ex) {
      const query = listAnswer(ex.res);
      const limit = query === undefined ? undefined : limitOf(query);
      if (query === undefined || limit === undefined) return NOT_JUDGED;
      const count = query.getAll('limit').length;
      // Without a limit, a parameter the spec does not name may be a paging control of the
      // server's own (§4: other pagination controls are not shown): no default bounds that list.
      if (count === 0 && [...query.keys()].some((name) => name !== 'status')) return NOT_JUDGED;
      const n = (ex.res.body as unknown[]).length;
      const given =
        count === 0
          ? `the default limit ${limit}`
          : count === 1
            ? `limit ${limit}`
            : `${limit}, the most that limit given ${count} times and the default allow`;
      return n > limit ? `${n} pets, more than ${given}` : undefined;
    },
  },
  ...PET_STATUSES.map(
    (status): TrafficRule =>
      asKitCheck(`listPets.status-filter.${status}`, {
        needs: `a 200 list with status=${status}`,
        readsBody: true,
        judge(ex) {
          const query = listAnswer(ex.res);
          const filters = query?.getAll('status') ?? [];
          if (filters.length !== 1 || filters[0] !== status) return NOT_JUDGED;
          for (const pet of ex.res.body as unknown[]) {
            const shown = (pet as { status?: unknown } | null)?.status;
            if (shown !== undefined && shown !== status) {
              const id = integerText(pet, 'id') ?? '?';
              return `it lists pet ${id} with status ${JSON.stringify(shown)}`;
            }
          }
          return undefined;
        },
      }),
  ),
  ...(['listPets', 'createPet', 'getPet'] as const).flatMap((op) =>
    KEYLESS_SHAPES.map(({ id, how }) =>
      asKitCheck(`auth.${op}.${id}`, {
        needs:
          op === 'createPet'
            ? `a createPet request ${how}, answered 401${id === 'missing-header' ? ' or a success' : ''}`
            : `a ${op} request ${how}, answered 401${id === 'missing-header' ? ', a success' : ''} or, with nothing else wrong in it, 400`,
        readsBody: false,
        ...(id === 'missing-header' ? { readsKeys: true } : {}),
        judge(ex, state) {
          if (routeOf(ex.res).op !== op || keylessShapeOf(ex) !== id) {
            return NOT_JUDGED;
          }
          const { status } = ex.res;
          if (status === 401) return undefined;
          // A placeholder a sanitizer put in a key's place may look like any other shape; the
          // proxy records the request as sent, so there a success is wrong whatever the shape.
          if ((id === 'missing-header' || state.headersAsSent) && status >= 200 && status <= 299) {
            return `a request ${how} answered ${status}, a success: a missing or invalid key is 401 (§5)`;
          }
          // Any other refusal may have another cause the traffic holds (an Origin a CORS filter
          // refuses with 403, a lookup before the key's check, an Expect met with 417); a 400 to
          // a read with nothing else wrong in it has none.
          if (status === 400 && isSoundRead(ex)) {
            return `a request ${how} answered 400, with nothing else wrong in it: a missing or invalid key is 401 (§5)`;
          }
          return NOT_JUDGED;
        },
      }),
    ),
  ),
  soundReadRule('listPets', 'listPets.returns-pet-array'),
  soundReadRule('getPet', 'getPet.returns-pet'),
  answerCheck(
    'getPet.deprecation-only-on-get-pet',
    'a listPets or createPet answer',
    otherOperation,
  ),
];

/**
 * A sound read (`isSoundRead`) with a bearer token gets 200, 404 for a pet that does not exist
 * (or, from the sunset on, 410), or 401 for a key the server does not hold (§4.1, §4.3, §5, §9):
 * a `405` or `422`, a `400` to the list or to a petId every client holds (up to 2^53 - 1, the
 * ids the run's `getPet.not-found` reads and holds to 404), or a `410` before the sunset, is none
 * of those (a `410` after a request that may have changed pets, such as a `DELETE` of the spec's
 * path, may say a pet is gone: RFC 9110 §15.5.11). A `400` to a larger petId holds, as in the
 * run (a server may refuse ids beyond those it gives as it refuses `0`), and so do a `403` and a
 * `404` to the list: a key's scope, which the spec leaves open, and RFC 9110 §15.5.4 lets a
 * server hide a resource from it with 404.
 */
function soundReadRule(op: 'listPets' | 'getPet', id: string): TrafficRule {
  const what = op === 'listPets' ? '200 (or 401)' : '200, 404 (or 401)';
  return asKitCheck(id, {
    needs: `a ${op} request with a bearer token and nothing else a server may refuse`,
    readsBody: false,
    judge(ex, state) {
      if (routeOf(ex.res).op !== op || !BEARER_TOKEN.test(ex.authorization ?? '')) {
        return NOT_JUDGED;
      }
      if (!isSoundRead(ex)) return NOT_JUDGED;
      const { status } = ex.res;
      const beforeSunset = ex.recorded.sentAt < GET_PET_SUNSET_AT.getTime();
      const route = routeOf(ex.res);
      const wrong =
        [405, 422].includes(status) ||
        (status === 400 &&
          (route.op === 'listPets' ||
            (route.op === 'getPet' && BigInt(route.petId) <= BigInt(ID_MAX)))) ||
        (status === 410 && beforeSunset && !changed(state));
      if (!wrong) return undefined;
      return `a ${op} request with a bearer token, and nothing else wrong in it, answered ${status}: it gets ${what} (§4, §5)`;
    },
  });
}

/** Header fields through which a client asks a server to take a `POST` for another method. */
const METHOD_OVERRIDE_FIELDS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/** Redirects a client follows with a `GET` in a `POST`'s place (RFC 9110 §15.4.2–§15.4.4). */
const READ_INSTEAD_REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303]);

/**
 * createPet is an operation of `/pets` (§4.2): a `405` to a `POST` there says the resource has no
 * such method (RFC 9110 §15.5.6), whatever the request's key or body. Its answers are a `201`
 * with the created Pet, a `400` or a `401`: a `301`, `302` or `303` to the spec's `/pets` or a
 * pet below it has the client read that place instead (Post/Redirect/Get, a path redirected to
 * another spelling), so it shows no created Pet, and a refused create no Error. A create with an
 * `Idempotency-Key` is left alone: a repeat of one may be answered `303` to the pet it made
 * (RFC 9110 §9.3.3). So is a redirect elsewhere: to another origin (`http` to `https`) or to
 * another path (a front's challenge page), the front's, which says nothing of the server. A request
 * that asks for another method (an override field, `_method` in the query or as a member of a
 * JSON body, as Symfony reads it, a body of another type, such as a form's) is left alone, as
 * the server may have taken it for that method.
 */
const createNotAllowedRule: TrafficRule = asKitCheck('createPet.created', {
  needs: 'a createPet request with a JSON body or none, and no method override',
  readsBody: false,
  judge(ex) {
    if (routeOf(ex.res).op !== 'createPet') return NOT_JUDGED;
    const headers = ex.requestHeaders;
    const type = mediaTypeOf(headers);
    if (headers.has('content-type') && !isJsonMediaType(type)) return NOT_JUDGED;
    if (METHOD_OVERRIDE_FIELDS.some((name) => headers.has(name))) return NOT_JUDGED;
    if (new URL(ex.res.url).searchParams.has('_method')) return NOT_JUDGED;
    if (/"_method"\s*:/.test(ex.recorded.requestBody ?? '')) return NOT_JUDGED;
    const { status, url } = ex.res;
    if (READ_INSTEAD_REDIRECTS.has(status)) {
      if (headers.has('idempotency-key')) return undefined;
      const location = ex.res.headers.get('location');
      const to = location === null ? null : URL.parse(location, url);
      const from = new URL(url);
      // The request's path ends in /pets: its Location names the collection or a pet below it.
      const pets = from.pathname.toLowerCase();
      const named = to?.pathname.toLowerCase().replace(/\/+$/, '');
      const spec = named === pets || named?.startsWith(`${pets}/`) === true;
      if (to === null || to.origin !== from.origin || !spec) return undefined;
      return `a createPet request answered ${status}, a redirect a client follows with a GET of ${to.pathname}${to.search}: createPet answers 201 with the created Pet, 400 or 401 (§4.2, §5)`;
    }
    if (status !== 405) return undefined;
    return 'a createPet request answered 405: POST is an operation of /pets (§4.2), and 405 says the resource has no such method';
  },
});

/**
 * What is wrong with a createPet request's body, when it was sent as `application/json` and
 * recorded whole: its Content-Length is the recorded body's length, or, for a body sent chunked,
 * the recorder vouches for it (`requestBodyWhole`). A recorder may cut a body short, and a
 * sanitizer may put a placeholder in its place; the length tells either. An empty body counts
 * only with `Content-Length: 0`: a recorder that kept no body may write an empty one.
 */
function findBodyProblem(ex: Exchange): BodyProblem | undefined {
  const { requestBody: body, requestBodyWhole } = ex.recorded;
  if (routeOf(ex.res).op !== 'createPet' || body === undefined) return undefined;
  const headers = ex.requestHeaders;
  // No body at all, sent with no media type (a POST with nothing in it): the body §4.2 requires
  // is missing, whatever type it would have had.
  const nothing = body === '' && !headers.has('content-type');
  if (mediaTypeOf(headers) !== 'application/json' && !nothing) return undefined;
  const length = headers.get('content-length');
  if (body === '' && length === null) return undefined;
  const whole =
    length === null
      ? requestBodyWhole === true
      : Number(length) === new TextEncoder().encode(body).length;
  return whole ? newPetBodyProblem(body, new URL(ex.res.url).searchParams) : undefined;
}

/** Each exchange's body problem, found once for all the rules that ask (one per kind of body). */
const bodyProblems = new WeakMap<Exchange, BodyProblem | undefined>();

function bodyProblemOf(ex: Exchange): BodyProblem | undefined {
  if (!bodyProblems.has(ex)) bodyProblems.set(ex, findBodyProblem(ex));
  return bodyProblems.get(ex);
}

/**
 * The body problems that leave a server nothing else to refuse the body for: no JSON object at
 * all, so no member a check of its own (an unknown category) could find wrong first.
 */
const NO_OBJECT = new Set([
  'createPet.malformed-json',
  'createPet.trailing-content',
  'createPet.body-not-object',
  'createPet.empty-body',
  'createPet.blank-body',
]);

/**
 * createPet refuses a body that is no NewPet with 400 (§4.2): each kind of body the kit's checks
 * send, judged under that check. A 400 holds and a success fails. A 422 (what Laravel, FastAPI
 * and Rails' scaffolds answer a body they cannot take) fails too where the body is no JSON
 * object (`NO_OBJECT`) and carries no `Idempotency-Key`, whose reuse a server may refuse with
 * 422 whatever the body. Any other answer (401, 415, a 4xx of the server's own, a 422 to an
 * object) may have another cause and says nothing of the body.
 */
const bodyRules: TrafficRule[] = BODY_PROBLEM_CHECKS.map((id) =>
  asKitCheck(id, {
    needs:
      'a createPet request with such an application/json body, answered 400 or a success (or, when it is no JSON object, 422)',
    readsBody: false,
    judge(ex) {
      const problem = bodyProblemOf(ex);
      if (problem?.check !== id) return NOT_JUDGED;
      const { status } = ex.res;
      if (status === 400) return undefined;
      if (status === 422 && NO_OBJECT.has(id) && !ex.requestHeaders.has('idempotency-key')) {
        return `${problem.reason}: createPet refuses such a body with 400, not 422`;
      }
      if (status < 200 || status > 299) return NOT_JUDGED;
      return `${problem.reason}: createPet refuses such a body with 400, never with a success`;
    },
  }),
);

/**
 * `application/json` as RFC 9110 (§8.3.1, §5.6.6) lets a client write it: in any letter case,
 * with white space around `;`, empty parameters, and at most a charset of UTF-8 (JSON's one
 * encoding, RFC 8259 §8.1), quoted or not.
 */
const JSON_SPELLING =
  /^application\/json(?:[ \t]*;[ \t]*)*(?:charset=(?:utf-8|"utf-8")(?:[ \t]*;[ \t]*)*)?$/i;

/**
 * createPet takes a body sent as `application/json` however that is spelled (§1, §4.2): a 415 to
 * one fails, a success holds, and any other answer may have another cause. A request with a
 * Content-Encoding is left alone: a server may refuse a coding with 415 (RFC 9110 §15.5.16).
 */
const mediaTypeRule: TrafficRule = asKitCheck('createPet.media-type-spellings', {
  needs:
    'a createPet request sent as application/json (no Content-Encoding), answered 415 or a success',
  readsBody: false,
  judge(ex) {
    if (routeOf(ex.res).op !== 'createPet') return NOT_JUDGED;
    const headers = ex.requestHeaders;
    const type = headers.get('content-type') ?? '';
    if (headers.has('content-encoding') || !JSON_SPELLING.test(type)) return NOT_JUDGED;
    const { status } = ex.res;
    if (status === 415) return `Content-Type: ${type} is application/json, yet it answered 415`;
    return status >= 200 && status <= 299 ? undefined : NOT_JUDGED;
  },
});

/**
 * `getPet.path-boundaries` on the ids the traffic sent: a petId that is no integer (`abc`, `1.5`,
 * `0x1`) is never answered with a success, and a 200 to an integer written otherwise than plainly
 * (`0`, `007`, beyond int64) or with a format suffix (`7.json`) shows that very pet, digit for
 * digit. A plain positive id is the
 * pet model's and `errors.pet-fields`' to judge. A 400 or 404 holds; other answers (401, 429)
 * may have another cause.
 */
const pathIdRule: TrafficRule = asKitCheck('getPet.path-boundaries', {
  needs: 'a getPet on a petId that is no plain positive integer (abc, 1.5, 0, 007)',
  readsBody: false,
  judge(ex) {
    const route = routeOf(ex.res);
    if (route.op !== 'getPet' || /^[1-9]\d*$/.test(route.petId)) return NOT_JUDGED;
    // A segment's parameter (`7;v=1`) is the server's to read (RFC 3986 §3.3): a servlet
    // container takes it off before the app sees the path.
    if (route.petId.includes(';')) return NOT_JUDGED;
    const { status } = ex.res;
    if (status === 400 || status === 404) return undefined;
    if (status < 200 || status > 299) return NOT_JUDGED;
    // An integer in another lexical form (`+7`, as XML Schema writes one; `7.0`, a JSON number
    // whose value is an integer, as a client that holds ids as floats writes it) is that integer;
    // `7.json` is pet 7 in JSON where paths have a format suffix (Rails, Spring, DRF), a path the
    // spec does not have, as `/pets.json` is not.
    const wanted = canonicalInteger(route.petId.replace(/^\+(?=\d)/, '').replace(/\.json$/, ''));
    if (wanted === undefined) {
      return `petId ${quote(route.petId)} is no integer, and it answered ${status}, a success: such an id gets 404 or 400`;
    }
    if (!ex.bodyRecorded) return NOT_JUDGED;
    const shown = integerText(ex.res.body, 'id');
    return shown === wanted
      ? undefined
      : `it answered ${status} with pet ${shown ?? 'without an id'}, not pet ${wanted}`;
  },
});

/** Every rule traffic is held to, in the order the report lists them. */
export const TRAFFIC_RULES: readonly TrafficRule[] = [
  ...crossRules.slice(0, 3),
  ...oracleRules,
  ...crossRules.slice(3),
  ...bodyRules,
  createNotAllowedRule,
  mediaTypeRule,
  pathIdRule,
  ...deprecationRules,
];

/** The methods that change nothing on the server (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * True for an exchange, on the server judged, that may have changed pets where the traffic
 * cannot see how: a request of another method than the safe ones to a path that is none of the
 * spec's operations (an update, a delete, Petstore's form POST to `/pets/{id}`, a store order:
 * §4 has such operations without showing them), or one the server never answered (it may have
 * been carried out), but a create, which only adds a pet the traffic does not know.
 */
export function mayChangePets(ex: Exchange, base: string): boolean {
  const { recorded, standing } = ex;
  if (SAFE_METHODS.has(recorded.method)) return false;
  if (standing === 'other-path') return true;
  return (
    standing === 'not-answered' &&
    URL.parse(recorded.url)?.origin === new URL(base).origin &&
    routeOf(ex.res).op !== 'createPet'
  );
}
