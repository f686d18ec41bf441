import {
  type SpecErrorBody,
  type SpecPet,
  validateSpecErrorBody,
  validateSpecPetList,
} from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { SentPet } from '../fixtures.js';
import { type HttpRequest, type HttpResponse, RequestError } from '../http/client.js';
import { integerText } from '../http/json.js';
import { errorSummary, quote } from '../http/replay.js';
import { brief, notJsonReason, petProblem } from '../oracles.js';
import { andMore } from '../plural.js';
import { type Check, GROUPS, type Group, type Verdict } from '../types.js';

/** Thrown inside a check to end it as failed with a one-line reason and, when known, the answer. */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
  constructor(
    message: string,
    /** The answer that shows the failure, for the report's replay line. */
    readonly response?: HttpResponse,
  ) {
    super(message);
  }
}

/** Thrown inside a check that cannot judge (missing data, read-only mode). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
  constructor(
    message: string,
    /** True when the check's statement has nothing to apply to (see `Verdict`). */
    readonly notApplicable = false,
  ) {
    super(message);
  }
}

/**
 * When a check runs. `first`: its failure explains others (the key refused, a write lost), so it
 * runs before the checks that need the pets. `late`: it judges best on every pet the run writes,
 * so it runs after every other check that writes. `last`: it judges every request the run sent.
 * The rest run in between, by group and in the order their sections declare them.
 */
export type Stage = 'first' | 'late' | 'last';

/** A check as its section declares it: what cannot be derived from its id or its section. */
export interface CheckDeclaration {
  /** `group.name...`: the first part is the check's group. */
  readonly id: string;
  readonly title: string;
  /** The spec section(s) the check rests on, when not its section's. */
  readonly section?: string;
  /** What a `should` check rests on besides the spec; a check with none is a `must`. */
  readonly rule?: string;
  /** Whether the check creates data, when not what its id says (a check of createPet does). */
  readonly writes?: boolean;
  run: Check['run'];
}

/** A check with its stage in the run. */
export interface DeclaredCheck extends Check {
  readonly stage?: Stage;
}

/** One statement of the spec, how it is judged and what is sent to judge it. */
export interface MatrixRow {
  /** The spec section(s) stating it, e.g. `§4.1, §8`. */
  readonly section: string;
  /** What the spec says, in a sentence. */
  readonly statement: string;
  /** What judges an answer: the rule an answer must meet (and which answers it accepts). */
  readonly oracle: string;
  /** What the kit sends to exercise it: every boundary class, on every run. */
  readonly inputs: string;
  /**
   * The checks that hold the row: check ids, where `*` stands for one dot-free part
   * (`auth.*.missing-header` is that check on every operation).
   */
  readonly checks: readonly string[];
}

/** One section of the spec as the kit holds a server to it: its matrix rows and their checks. */
export interface SpecSection {
  readonly rows: readonly MatrixRow[];
  readonly checks: readonly DeclaredCheck[];
}

/** The group a check id names by its first part; throws on an id of no group. */
function groupOf(id: string): Group {
  const [first] = id.split('.');
  const group = GROUPS.find((g) => g === first);
  if (group === undefined) throw new Error(`check id ${id} names no group (${GROUPS.join(', ')})`);
  return group;
}

/**
 * The check declarer of one section: `section` is the spec section its checks rest on unless one
 * says otherwise. A check's group is its id's first part, its level `should` when it rests on a
 * rule besides the spec, and it writes when its id names createPet, unless it says otherwise.
 * The errors group's checks run last.
 */
export function declarer(section: string): (declaration: CheckDeclaration) => DeclaredCheck {
  return ({ rule, writes, ...declared }) => {
    const group = groupOf(declared.id);
    return {
      ...declared,
      section: declared.section ?? section,
      ...(rule === undefined ? {} : { rule }),
      level: rule === undefined ? 'must' : 'should',
      group,
      writes: writes ?? declared.id.split('.').slice(0, 2).includes('createPet'),
      // The errors group judges every answer of the run.
      ...(group === 'errors' ? { stage: 'last' } : {}),
    };
  };
}

/** The checks, to run at `stage`. */
export function inStage(stage: Stage, checks: readonly DeclaredCheck[]): DeclaredCheck[] {
  return checks.map((c) => ({ ...c, stage }));
}

/** A passed check, with what was observed. */
export function pass(message: string): Verdict {
  return { outcome: 'pass', message };
}

/** Ends the check as failed; `res` is the answer that shows it (else the check's last one). */
export function fail(message: string, res?: HttpResponse): never {
  throw new CheckFailed(message, res);
}

/**
 * Runs `each` on every case, whatever the ones before it showed, so that every boundary is sent on
 * every run and the checks of every answer judge the answers to all of them; then fails with the
 * first case that failed (and the answer that showed it: the one named, else the last one received
 * by then; or the request that got no answer), saying how many more did.
 */
export async function everyCase<T>(
  ctx: CheckContext,
  cases: Iterable<T>,
  each: (item: T) => Promise<void>,
): Promise<void> {
  const failures: (CheckFailed | RequestError)[] = [];
  for (const item of cases) {
    try {
      await each(item);
    } catch (error) {
      if (error instanceof RequestError) failures.push(error);
      else if (!(error instanceof CheckFailed)) throw error;
      else
        failures.push(
          error.response ? error : new CheckFailed(error.message, ctx.responses.at(-1)),
        );
    }
  }
  const [first] = failures;
  if (first === undefined) return;
  if (failures.length === 1) throw first;
  const message = `${first.message}${andMore(failures.length)}`;
  if (first instanceof RequestError) {
    throw new RequestError(first.kind, message, first.reason, first.sent);
  }
  throw new CheckFailed(message, first.response);
}

/**
 * The answer to `request`, or why the connection gave none (a network failure: the server closed
 * it, as HTTP lets a server do with a request it will not serve). No answer in time still fails.
 */
export function answerOrLost(
  ctx: CheckContext,
  request: HttpRequest,
): Promise<HttpResponse | { lost: string }> {
  return orLost(ctx.send(request));
}

/** `sent`'s answer, or why the connection gave none, as `answerOrLost` says. */
export async function orLost(
  sent: Promise<HttpResponse>,
): Promise<HttpResponse | { lost: string }> {
  try {
    return await sent;
  } catch (error) {
    if (error instanceof RequestError && error.kind === 'network') return { lost: error.reason };
    throw error;
  }
}

/** `sent`'s answer; a request that got none fails saying `how` it went. */
export async function answerTo(how: string, sent: Promise<HttpResponse>): Promise<HttpResponse> {
  try {
    return await sent;
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    const { kind, message, reason } = error;
    throw new RequestError(kind, `${message} (${how})`, reason, error.sent);
  }
}

/** Ends the check as skipped: it could not judge (the run is INCOMPLETE when it is a `must`). */
export function skip(message: string): never {
  throw new CheckSkipped(message);
}

/** Ends the check as skipped because its statement has nothing to apply to on this server. */
export function notApplicable(message: string): never {
  throw new CheckSkipped(message, true);
}

/** `GET /pets?limit=1` (and, when given, how it was sent), for messages. */
export function described(res: HttpResponse, how?: string): string {
  return `${res.method} ${res.path}${how ? ` ${how}` : ''}`;
}

/**
 * A short view of a body that is no Error, for messages (an Error's code and message get a line
 * of their own in the report).
 */
function bodyHint(res: HttpResponse): string {
  if (errorSummary(res) !== undefined) return '';
  const text = res.text.replace(/\s+/g, ' ').trim();
  // Cut with `…`, which the redactor knows: the start of a key the server echoed is hidden too.
  return text === '' ? '' : ` (${quote(text.length > 60 ? `${text.slice(0, 59)}…` : text)})`;
}

/** Fails unless the answer has exactly `status`, or one of several. */
export function expectStatus(
  res: HttpResponse,
  status: number | readonly number[],
  how?: string,
): void {
  const allowed = typeof status === 'number' ? [status] : status;
  if (!allowed.includes(res.status)) {
    const expected =
      allowed.length === 1 ? allowed : [allowed.slice(0, -1).join(', '), allowed.at(-1)];
    fail(
      `${described(res, how)} answered ${res.status}${bodyHint(res)}, expected ${expected.join(' or ')}`,
      res,
    );
  }
}

/** Fails unless the answer is JSON with a JSON `Content-Type`. */
export function expectJson(res: HttpResponse, how?: string): void {
  const reason = notJsonReason(res);
  if (reason !== undefined) fail(`${described(res, how)} answered ${res.status}: ${reason}`, res);
}

/** Fails unless the body is a valid Pet (the contract's schema); returns it. */
export function expectPet(res: HttpResponse, how?: string): SpecPet {
  expectJson(res, how);
  const problem = petProblem(res.body);
  if (problem !== undefined) fail(`${described(res, how)}: ${problem}`, res);
  return res.body as SpecPet;
}

/** Fails unless the answer is `200` with a JSON array of valid Pets; returns the items. */
export function expectPetList(res: HttpResponse, how?: string): SpecPet[] {
  expectStatus(res, 200, how);
  expectJson(res, how);
  const checked = validateSpecPetList(res.body);
  if (!checked.ok) {
    fail(`${described(res, how)}: not a JSON array of Pets: ${brief(checked.details)}`, res);
  }
  for (const [i, item] of checked.value.entries()) {
    const problem = petProblem(item);
    if (problem !== undefined) fail(`${described(res, how)}: item ${i}: ${problem}`, res);
  }
  return checked.value;
}

/** Why an error answer's body is not a valid Error for its status, or undefined. */
export function errorBodyProblem(res: HttpResponse): string | undefined {
  const notJson = notJsonReason(res);
  if (notJson !== undefined) return notJson;
  const checked = validateSpecErrorBody(res.body);
  if (!checked.ok) return `not a valid Error body: ${brief(checked.details)}`;
  if (checked.value.status !== res.status) {
    return `Error body says status ${checked.value.status}`;
  }
  return undefined;
}

/** Fails unless the answer is exactly `status` with a valid Error body whose status matches. */
export function expectError(res: HttpResponse, status: number, how?: string): SpecErrorBody {
  expectStatus(res, status, how);
  const problem = errorBodyProblem(res);
  if (problem !== undefined) fail(`${described(res, how)} answered ${res.status}: ${problem}`, res);
  return res.body as SpecErrorBody;
}

/** A pet's id as an exact integer string (int64 ids may exceed 2^53). */
export function idOf(pet: unknown): string | undefined {
  return integerText(pet, 'id');
}

/** True when the answer shows pets: a 2xx with a Pet, or a non-empty array of Pets. */
export function showsPets(res: HttpResponse): boolean {
  if (res.status < 200 || res.status > 299) return false;
  const items = Array.isArray(res.body) ? res.body : [res.body];
  return items.length > 0 && items.every((item) => petProblem(item) === undefined);
}

/** Fails when `res`, an answer to a request `how` sent without a valid key, shows pets. */
export function expectNoPetsShown(res: HttpResponse, how: string): void {
  if (showsPets(res)) {
    fail(`${described(res, how)} answered ${res.status} with pets: the key was not asked for`, res);
  }
}

/** The id of the first pet a list answer shows, or undefined. */
export function firstListedId(listed: HttpResponse): string | undefined {
  return Array.isArray(listed.body) ? idOf(listed.body[0]) : undefined;
}

/**
 * The reads a check sends again in another way: the list `listed` answered, and the first pet it
 * shows, when it shows one.
 */
export function listedReads(listed: HttpResponse): string[] {
  const first = firstListedId(listed);
  return [listed.request.path, ...(first === undefined ? [] : [`/pets/${first}`])];
}

/** The fields a pet is known by besides its id; `categoryId` as an exact integer string. */
export interface PetFields {
  readonly name: string;
  readonly categoryId: string | undefined;
  readonly status?: string;
}

/** The fields the kit sent for a pet. */
export function sentFields(sent: SentPet): PetFields {
  return { name: sent.name, categoryId: sent.categoryId, status: sent.status };
}

/** The fields of a pet the server returned (categoryId exact, from its JSON literal). */
export function petFields(pet: SpecPet): PetFields {
  return { name: pet.name, categoryId: integerText(pet, 'categoryId'), status: pet.status };
}

/** How `pet` differs from the expected fields, or undefined when it is the same pet. */
export function difference(pet: SpecPet, expected: PetFields): string | undefined {
  const actual = petFields(pet);
  if (actual.name !== expected.name) {
    return `name is ${JSON.stringify(actual.name)}, expected ${JSON.stringify(expected.name)}`;
  }
  if (actual.categoryId !== expected.categoryId) {
    return `categoryId is ${actual.categoryId ?? pet.categoryId}, expected ${expected.categoryId}`;
  }
  // Status is optional in a Pet: a server may leave it out, but never change it.
  if (
    actual.status !== undefined &&
    expected.status !== undefined &&
    actual.status !== expected.status
  ) {
    return `status is "${actual.status}", expected "${expected.status}"`;
  }
  return undefined;
}

/** The same integer as a client holding numbers as doubles sees it (RFC 8259 §6). */
export function sameAsDouble(a: string | undefined, b: string): boolean {
  return a !== undefined && Number(a) === Number(b);
}

export { INT64_MAX } from '../oracles.js';

/**
 * Holds an answer to a body the spec gives no answer to: a 4xx Error, or 201 with (when `sent`
 * is known) the pet as sent; never a 5xx nor another status.
 */
export function expectCreatedOrRefused(res: HttpResponse, how: string, sent?: SentPet): void {
  if (res.status === 201) {
    if (sent === undefined) return;
    const problem = difference(expectPet(res, how), sentFields(sent));
    if (problem !== undefined) fail(`${described(res, how)}: ${problem}`, res);
  } else if (res.status >= 400 && res.status <= 499) {
    expectError(res, res.status, how);
  } else {
    fail(`${described(res, how)} answered ${res.status}, expected 201 or a 4xx`, res);
  }
}
