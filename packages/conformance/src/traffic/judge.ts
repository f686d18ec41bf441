// Judges traffic the kit did not send, exchange by exchange in the order the answers arrived, and
// writes the kit's report of it: the same results, reporters and exit statuses as a run.
import type { HttpResponse } from '../http/client.js';
import { curlLine, errorSummary } from '../http/replay.js';
import { andMore, plural } from '../plural.js';
import { Redactor, SECRET_MIN } from '../redact.js';
import { ConformanceError } from '../run.js';
import { KEY_QUERY_PARAMETERS } from '../sections/auth.js';
import { CHECK_IDS } from '../sections/index.js';
import { tally } from '../tally.js';
import type { CheckResult, ConformanceReport, Outcome, TrafficSummary } from '../types.js';
import { GROUPS } from '../types.js';
import { KIT_NAME, KIT_VERSION } from '../version.js';
import { type Exchange, exchangeOf, type RecordedExchange } from './exchange.js';
import {
  type Judgment,
  mayChangePets,
  NOT_JUDGED,
  TRAFFIC_RULES,
  type TrafficRule,
  TrafficState,
} from './rules.js';

/** A rule broken by one exchange, as it is found. */
export interface Violation {
  readonly id: string;
  readonly section: string;
  readonly level: 'must' | 'should';
  readonly message: string;
}

export interface TrafficJudgeOptions {
  /** The base URL the spec's operations are judged below (ending in `/v1`). */
  readonly base: string;
  /** Count `should` advisories as failures. */
  readonly strict?: boolean;
  /** Where the traffic comes from, for the report (`a HAR file`, `the proxy`). */
  readonly source: string;
  /** Called with each violation as it is found (already redacted). */
  readonly onViolation?: (violation: Violation) => void;
  /**
   * False when the recording kept no `Authorization` header anywhere (a sanitized HAR): the rules
   * on requests without one judge nothing. True by default; `judgeTraffic` finds it out.
   */
  readonly keysRecorded?: boolean;
  /** How long a write may take to show in reads: reads sent sooner are not held to it. */
  readonly settleMs?: number;
  /**
   * True when each request's header lines are recorded as sent (the proxy): no sanitizer put a
   * placeholder in a key's place, so a request that shows no bearer key sent none, and a success
   * to it is wrong whatever its shape.
   */
  readonly headersAsSent?: boolean;
}

/** Why a rule on requests without `Authorization` judged nothing in a recording that kept none. */
const KEYS_NOT_RECORDED =
  "not judged: the recording holds no Authorization header at all, as a sanitized HAR (the default export of Chrome's DevTools) leaves it, so a request without a key cannot be told from one whose key was taken out";

/** True when a request of the recording carried `Authorization`. */
const carriesKey = (recorded: RecordedExchange) =>
  recorded.requestHeaders.some(([name]) => name.toLowerCase() === 'authorization');

interface RuleTally {
  exercised: number;
  readonly offenders: { readonly res: HttpResponse; readonly why: string }[];
}

/** Query parameters whose value is a secret in any URL: the keys servers take, and their kin. */
const SECRET_PARAMETER = /key|token|secret|password|auth|signature|sig$/i;

/**
 * The names of HTTP's authentication schemes (IANA's registry): an `Authorization` value that is
 * one of them alone carries no credentials (RFC 9110 §11.4), and before credentials it says only
 * which scheme was sent; hiding it would hide that word wherever a report prints it, replay
 * lines' `Bearer` among them.
 */
const AUTH_SCHEME =
  /^(basic|bearer|concealed|digest|dpop|gnap|hoba|mutual|negotiate|oauth|privatetoken|scram-sha-1|scram-sha-256|vapid)$/i;

/** A failure's message: what broke, how often, what the server said, a request that replays it. */
function failureMessage(offenders: RuleTally['offenders']): string {
  const [first] = offenders as [RuleTally['offenders'][number]];
  const more = andMore(offenders.length);
  const { res, why } = first;
  const said = errorSummary(res);
  const lead = why.startsWith(`${res.method} ${res.path}`)
    ? why
    : `${res.method} ${res.path} answered ${res.status}: ${why}`;
  return [
    `${lead}${more}`,
    ...(said === undefined ? [] : [`server said: ${said}`]),
    `replay: ${curlLine(res.request, res.url)}`,
  ].join('\n');
}

/**
 * What `rule` finds of `ex`; a rule that throws finds that the kit could not judge it, as a check
 * that throws in a run fails (`run.ts`), and the rules after it judge on.
 */
async function judgedBy(rule: TrafficRule, ex: Exchange, state: TrafficState): Promise<Judgment> {
  try {
    return await rule.judge(ex, state);
  } catch (error) {
    return `the kit could not judge this exchange: ${String(error)}`;
  }
}

/**
 * Holds traffic to the rules one exchange at a time; `report()` gives the kit's report of all of
 * it. Every text it gives out has the traffic's keys taken out.
 */
export class TrafficJudge {
  readonly redactor = new Redactor([], CHECK_IDS);
  private readonly state: TrafficState;
  /** False when the recording kept no `Authorization` anywhere (`TrafficJudgeOptions`). */
  private readonly keysRecorded: boolean;
  private readonly tallies = new Map<string, RuleTally>(
    TRAFFIC_RULES.map((rule) => [rule.id, { exercised: 0, offenders: [] }]),
  );
  private readonly counts = {
    exchanges: 0,
    judged: 0,
    otherHosts: 0,
    otherPaths: 0,
    notAnswered: 0,
    rateLimited: 0,
    unavailable: 0,
    fromCache: 0,
    headTooLarge: 0,
    bodiesNotRecorded: 0,
  };
  private readonly judgedRequests: {
    method: string;
    path: string;
    status: number | null;
    ms: number;
  }[] = [];
  private first: number | undefined;
  private last: number | undefined;
  /** Exchanges judged one after another, in the order they were added. */
  private queue: Promise<void> = Promise.resolve();
  /** The first exchange the kit failed to judge (outside a rule), and why: `report()` names it. */
  private unjudged: { readonly exchange: string; readonly error: unknown } | undefined;

  constructor(private readonly options: TrafficJudgeOptions) {
    this.state = new TrafficState(options.settleMs ?? 0, options.headersAsSent ?? false);
    this.keysRecorded = options.keysRecorded ?? true;
  }

  /**
   * Judges one exchange after those added before it; resolves once it is judged, and never
   * rejects. An exchange the kit fails to judge (an `onViolation` that throws, say) holds up none
   * after it: they are judged on, and `report()` fails naming it.
   */
  add(recorded: RecordedExchange): Promise<void> {
    this.queue = this.queue
      .then(() => this.judge(recorded))
      .catch((error: unknown) => {
        this.unjudged ??= { exchange: `${recorded.method} ${recorded.url}`, error };
      });
    return this.queue;
  }

  /** Hides the secrets a request carries: its Authorization, and any key in its URL. */
  private learnSecrets(recorded: RecordedExchange): void {
    for (const [name, value] of recorded.requestHeaders) {
      if (!/^(proxy-)?authorization$/i.test(name)) continue;
      const [scheme = '', token] = /^(\S+)\s+(.+)$/.exec(value.trim())?.slice(1) ?? [];
      if (token !== undefined) this.redactor.add(token);
      // A registered scheme before the credentials stays readable, so that a replay line says
      // which scheme was sent; any other value is hidden whole, and so is one whose credentials
      // are too short to hide alone (`Basic YWI`).
      const readable =
        token === undefined ? AUTH_SCHEME.test(value.trim()) : AUTH_SCHEME.test(scheme);
      if (!readable || (token !== undefined && token.length < SECRET_MIN)) this.redactor.add(value);
    }
    try {
      const url = new URL(recorded.url);
      // User info in a recorded URL (`https://user:password@host/…`), which replay lines show.
      for (const part of [url.password, url.username]) {
        if (part !== '') this.redactor.add(decodeURIComponent(part));
      }
      for (const [name, value] of url.searchParams) {
        const named = (KEY_QUERY_PARAMETERS as readonly string[]).includes(name);
        if (named || SECRET_PARAMETER.test(name)) this.redactor.add(value);
      }
    } catch {
      // No URL: nothing to hide in it.
    }
  }

  private async judge(recorded: RecordedExchange): Promise<void> {
    this.learnSecrets(recorded);
    this.counts.exchanges += 1;
    const ex = exchangeOf(recorded, this.options.base);
    if (ex.standing !== 'spec') {
      if (ex.standing === 'other-host') this.counts.otherHosts += 1;
      else if (ex.standing === 'other-path') this.counts.otherPaths += 1;
      else if (ex.standing === 'rate-limited') this.counts.rateLimited += 1;
      else if (ex.standing === 'unavailable') this.counts.unavailable += 1;
      else if (ex.standing === 'from-cache') this.counts.fromCache += 1;
      else if (ex.standing === 'head-too-large') this.counts.headTooLarge += 1;
      else this.counts.notAnswered += 1;
      if (mayChangePets(ex, this.options.base)) {
        this.state.changedBy ??= `${recorded.method} ${ex.res.path}`;
      }
      return;
    }
    this.counts.judged += 1;
    if (!ex.bodyRecorded) this.counts.bodiesNotRecorded += 1;
    this.first = Math.min(this.first ?? recorded.sentAt, recorded.sentAt);
    this.last = Math.max(this.last ?? recorded.receivedAt, recorded.receivedAt);
    this.judgedRequests.push({
      method: ex.res.method,
      path: ex.res.path,
      status: ex.res.status,
      ms: ex.res.ms,
    });
    for (const rule of TRAFFIC_RULES) {
      if (rule.readsBody && !ex.bodyRecorded) continue;
      if (rule.readsKeys && !this.keysRecorded) continue;
      const judgment = await judgedBy(rule, ex, this.state);
      if (judgment === NOT_JUDGED) continue;
      const tally = this.tallies.get(rule.id) as RuleTally;
      tally.exercised += 1;
      if (judgment === undefined) continue;
      tally.offenders.push({ res: ex.res, why: judgment });
      this.options.onViolation?.({
        id: rule.id,
        section: rule.section,
        level: rule.level,
        message: this.redactor.text(failureMessage([{ res: ex.res, why: judgment }])),
      });
    }
  }

  /** How many exchanges were of the spec's operations and judged so far. */
  get judged(): number {
    return this.counts.judged;
  }

  /**
   * The report of every exchange added so far (after they are all judged). Throws a
   * `ConformanceError` when the kit failed to judge one: the report would leave it out unseen.
   */
  async report(): Promise<ConformanceReport> {
    await this.queue;
    if (this.unjudged !== undefined) {
      const { exchange, error } = this.unjudged;
      throw new ConformanceError(
        this.redactor.text(`the kit could not judge ${exchange}: ${String(error)}`),
      );
    }
    const strict = this.options.strict ?? false;
    const results: CheckResult[] = TRAFFIC_RULES.map((rule) => {
      const tally = this.tallies.get(rule.id) as RuleTally;
      const base = {
        id: rule.id,
        title: rule.title,
        section: rule.section,
        level: rule.level,
        group: rule.group,
        ms: 0,
      };
      if (tally.offenders.length > 0) {
        const outcome: Outcome = rule.level === 'must' || strict ? 'fail' : 'advisory';
        return { ...base, outcome, message: failureMessage(tally.offenders) };
      }
      if (tally.exercised > 0) {
        const n = tally.exercised;
        return { ...base, outcome: 'pass', message: `${plural(n, 'exchange')} judged` };
      }
      const message =
        rule.readsKeys && !this.keysRecorded
          ? KEYS_NOT_RECORDED
          : `not exercised: the traffic holds no ${rule.needs.replace(/^an? /, '')}`;
      return { ...base, outcome: 'skip', message, notApplicable: true };
    });
    // Every check the traffic did not exercise is a skip with nothing to apply to: none is not run.
    const { summary, verdict } = tally(results);
    const exercised = results.filter((r) => r.outcome !== 'skip').map((r) => r.id);
    const traffic: TrafficSummary = {
      source: this.options.source,
      ...this.counts,
      keysRecorded: this.keysRecorded,
      ...(this.state.changedBy === undefined ? {} : { petsChangedBy: this.state.changedBy }),
      exercised,
      notExercised: results.filter((r) => r.outcome === 'skip').map((r) => r.id),
    };
    const startedAt = new Date(this.first ?? Date.now());
    return this.redactor.deep({
      kit: { name: KIT_NAME, version: KIT_VERSION },
      baseUrl: this.options.base,
      runId: 'traffic',
      startedAt: startedAt.toISOString(),
      durationMs: Math.max(0, Math.round((this.last ?? 0) - (this.first ?? 0))),
      strict,
      readOnly: false,
      seed: 0,
      inputs: { categoryIds: [], namePrefix: '', settleMs: this.options.settleMs ?? 0 },
      hints: [],
      groups: GROUPS.filter((g) => results.some((r) => r.group === g)),
      verdict,
      notRun: [],
      ok: verdict === 'pass',
      summary,
      results,
      created: { count: 0, namePrefix: '', ids: [] },
      requests: this.judgedRequests,
      traffic,
    });
  }
}

/** Judges recorded exchanges (a HAR file's) below `base` and gives the report. */
export async function judgeTraffic(
  recorded: readonly RecordedExchange[],
  options: TrafficJudgeOptions,
): Promise<{ report: ConformanceReport; judge: TrafficJudge }> {
  const judge = new TrafficJudge({
    ...options,
    keysRecorded: options.keysRecorded ?? recorded.some(carriesKey),
  });
  for (const r of recorded) void judge.add(r);
  return { report: await judge.report(), judge };
}

export type { Exchange };
