import type { CheckContext } from './context.js';
import type { RequestRecord } from './http/client.js';

export type { RequestRecord } from './http/client.js';

/** `must`: the spec requires it. `should`: a recommendation where the spec leaves a gap. */
export type Level = 'must' | 'should';

/** The groups checks are organised in; `--only` selects among them. */
export const GROUPS = ['auth', 'listPets', 'createPet', 'getPet', 'errors'] as const;
/** One of `GROUPS`. */
export type Group = (typeof GROUPS)[number];

/**
 * How a check ended. `advisory` is a failed `should` check (a failure only with `strict`);
 * `skip` means the check could not judge (read-only mode, missing data, rate limiting).
 */
export type Outcome = 'pass' | 'fail' | 'advisory' | 'skip';

/** The message of every check a read-only run skips because it creates data. */
export const READ_ONLY_SKIP = 'read-only run: this check creates data';

/** What a check's `run` returns: `fail` on a `should` check is reported as an advisory. */
export interface Verdict {
  readonly outcome: 'pass' | 'fail' | 'skip';
  readonly message: string;
  /**
   * On a skip: true when the statement has nothing to apply to on this server (a key without
   * letters has no other case), so the check leaves the run no less complete.
   */
  readonly notApplicable?: boolean;
}

/**
 * How a run ends. `pass`: every `must` check ran and passed. `fail`: a check failed.
 * `incomplete`: none failed, but some `must` checks could not run (pets out of the lists' reach,
 * a pet set not listed, rate limiting); they are listed with why. Exit status 0, 1 and 3.
 */
export type RunVerdict = 'pass' | 'fail' | 'incomplete';

/** The exit status of each verdict; 2 is a run that could not start (usage, connection, configuration). */
export const EXIT_STATUS: Readonly<Record<RunVerdict, number>> = {
  pass: 0,
  fail: 1,
  incomplete: 3,
};

/** A `must` check that could not run, and why. */
export interface NotRun {
  readonly id: string;
  readonly reason: string;
}

/** One conformance check: data plus the function that judges the server. */
export interface Check {
  /** Stable identifier, e.g. `listPets.limit-100`. */
  readonly id: string;
  readonly title: string;
  /** Spec section(s) the check rests on, e.g. `§4.1`. */
  readonly section: string;
  /**
   * For a `should` check, the rule it recommends besides the spec: an RFC (`RFC 8594`), an HTTP
   * rule, or the reference's decision on a gap. A `must` check rests on the spec alone.
   */
  readonly rule?: string;
  readonly level: Level;
  readonly group: Group;
  /** True when the check creates data; `readOnly` runs skip it. */
  readonly writes: boolean;
  run(ctx: CheckContext): Promise<Verdict>;
}

/** The outcome of one check in a report. */
export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly level: Level;
  readonly group: Group;
  readonly outcome: Outcome;
  readonly message: string;
  readonly ms: number;
  /** On a skip: the statement had nothing to apply to (see `Verdict`). */
  readonly notApplicable?: boolean;
}

/** Counts of outcomes over a run. */
export interface Summary {
  readonly passed: number;
  readonly failed: number;
  readonly advisories: number;
  readonly skipped: number;
}

/** Everything a run found out, as the reporters render it. */
export interface ConformanceReport {
  readonly kit: { readonly name: string; readonly version: string };
  readonly baseUrl: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly strict: boolean;
  readonly readOnly: boolean;
  /** The seed of every generated case: `--seed` replays the run's cases. */
  readonly seed: number;
  /** What the kit put into the pets it created (`--category-id`, `--name-prefix`, `--settle-ms`, `--max-pets`). */
  readonly inputs: {
    readonly categoryIds: readonly string[];
    readonly namePrefix: string;
    readonly settleMs: number;
    /** `--max-pets`, when given. */
    readonly maxPets?: number;
  };
  /** Things to fix before reading the results, e.g. a key the server refused. */
  readonly hints: readonly string[];
  readonly groups: readonly Group[];
  /** PASS, FAIL or INCOMPLETE: PASS only when every `must` check ran (see `RunVerdict`). */
  readonly verdict: RunVerdict;
  /**
   * The `must` checks that could not run, and why: what makes a run INCOMPLETE. Checks a
   * `--read-only` run leaves out on purpose are not among them.
   */
  readonly notRun: readonly NotRun[];
  /**
   * When some `must` checks could not reach the run's pets in a list: what gives a full verdict
   * (an empty store, newest-first lists, a `rel="next"` Link, `--fixtures`) and which of these
   * this server lacks.
   */
  readonly fullVerdict?: string;
  /** True when the verdict is PASS: no check failed and every `must` check ran. */
  readonly ok: boolean;
  readonly summary: Summary;
  readonly results: readonly CheckResult[];
  /** Pets this run created: they stay on the server (the spec has no delete). */
  readonly created: {
    readonly count: number;
    readonly namePrefix: string;
    readonly ids: readonly string[];
  };
  readonly requests: readonly RequestRecord[];
  /** When the report judges traffic the kit did not send (`judge --har`, `proxy`): what it held. */
  readonly traffic?: TrafficSummary;
}

/** What judged traffic held, and which checks it exercised. */
export interface TrafficSummary {
  /** Where it came from: a HAR file, or the proxy and its target. */
  readonly source: string;
  /** Every exchange seen. */
  readonly exchanges: number;
  /** Exchanges of the spec's operations below the base URL: the ones judged. */
  readonly judged: number;
  /** Exchanges with other hosts, or other paths and methods of this one: counted, left alone. */
  readonly otherHosts: number;
  readonly otherPaths: number;
  /** Requests that got no answer (failed, blocked). */
  readonly notAnswered: number;
  /** Answers `429`: the spec gives no rate limits, and the kit never judges a 429 (it retries). */
  readonly rateLimited: number;
  /**
   * Answers `503`: the spec gives server errors no meaning (§7), and a 503 says that the server
   * could not handle the request for now (RFC 9110 §15.6.4), as a 429 does: left alone.
   */
  readonly unavailable: number;
  /**
   * Answers the browser gave, from its cache or by a service worker (the request did not reach
   * the server as recorded): left alone.
   */
  readonly fromCache: number;
  /**
   * Requests whose head (request line and header lines) is over `HEAD_LIMIT` bytes or holds over
   * `HEAD_FIELDS_LIMIT` header fields, refused with `400`, `413`, `414` or `431`: servers and their
   * fronts set such limits (nginx, gunicorn, fasthttp, Apache, haproxy), the spec shows none (§8),
   * and the refusal is often the front's page: left alone.
   */
  readonly headTooLarge: number;
  /**
   * Judged exchanges whose answer body was not recorded, or is in a content coding the kit cannot
   * undo: only rules on statuses and headers judged them.
   */
  readonly bodiesNotRecorded: number;
  /**
   * False when no request of the recording carried `Authorization` (a sanitized HAR leaves none):
   * the rules on requests without a key then judge nothing.
   */
  readonly keysRecorded: boolean;
  /** The first request that may change pets (an operation the spec does not give): rules across answers stop there. */
  readonly petsChangedBy?: string;
  /** The checks some exchange exercised, and those none did. */
  readonly exercised: readonly string[];
  readonly notExercised: readonly string[];
}

/** Progress of a run, for reporters that show it while it goes. */
export type ProgressEvent =
  | {
      readonly type: 'start';
      readonly baseUrl: string;
      readonly runId: string;
      readonly seed: number;
      readonly checks: number;
    }
  | { readonly type: 'notice'; readonly message: string }
  | {
      readonly type: 'check';
      readonly result: CheckResult;
      readonly index: number;
      readonly total: number;
    };
