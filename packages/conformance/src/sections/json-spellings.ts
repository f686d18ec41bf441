import type { CheckContext } from '../context.js';
import { FILL_LETTERS, newPetJson } from '../fixtures.js';
import { type HttpResponse, sentBytes } from '../http/client.js';
import { numberText, parseJson } from '../http/json.js';
import { routeOf } from '../oracles.js';
import {
  declarer,
  described,
  difference,
  everyCase,
  expectPet,
  fail,
  pass,
  type SpecSection,
  skip,
} from './support.js';

const check = declarer('§1, §4.2');

// RFC 8259 lets one string or object be written many ways: a `\u` escape for any character
// (a surrogate pair beyond the BMP), `\/` for `/`, white space between any two tokens, members
// in any order. A NewPet the server accepted must be accepted in each spelling, with the same
// answer. Numbers are left as sent: many correct stacks refuse `1E2` or `7.0` for an int64.

/** A NewPet the server accepted: its members in the order sent, categoryId as its literal. */
interface Accepted {
  readonly members: readonly (readonly [string, unknown])[];
  readonly categoryLiteral: string;
  readonly name: string;
  readonly answer: HttpResponse;
}

/** A string as JSON with every UTF-16 unit a `\u` escape (`/` as `\/` when `slash`). */
function escaped(text: string, slash: boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out += slash && text[i] === '/' ? '\\/' : `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** How one spelling writes a NewPet. */
interface Spelling {
  readonly what: string;
  readonly escape: boolean;
  readonly slash: boolean;
  readonly space: boolean;
  readonly reorder: boolean;
}

const ALL_AT_ONCE: Spelling = {
  what: 'every character a \\u escape (surrogate pairs beyond the BMP), / as \\/, white space between tokens, members in reverse order',
  escape: true,
  slash: true,
  space: true,
  reorder: true,
};

/** The spelling the kit writes otherwise: `JSON.stringify`'s. */
const PLAIN: Spelling = {
  what: 'plainly',
  escape: false,
  slash: false,
  space: false,
  reorder: false,
};

/** Each way alone, to name the one a server refuses. */
const EACH: readonly Spelling[] = [
  {
    what: 'every character a \\u escape',
    escape: true,
    slash: false,
    space: false,
    reorder: false,
  },
  { what: '/ written \\/', escape: false, slash: true, space: false, reorder: false },
  { what: 'white space between tokens', escape: false, slash: false, space: true, reorder: false },
  { what: 'members in reverse order', escape: false, slash: false, space: false, reorder: true },
];

/** The JSON text of `pet` in `spelling`. */
export function spell(pet: Accepted, spelling: Spelling): string {
  const ws = spelling.space ? ' \t\r\n' : '';
  const str = (text: string) =>
    spelling.escape
      ? escaped(text, spelling.slash)
      : spelling.slash
        ? JSON.stringify(text).replaceAll('/', '\\/')
        : JSON.stringify(text);
  const members = spelling.reorder ? [...pet.members].reverse() : pet.members;
  const parts = members.map(([key, value]) => {
    const literal =
      key === 'categoryId'
        ? pet.categoryLiteral
        : typeof value === 'string'
          ? str(value)
          : JSON.stringify(value);
    return `${ws}${str(key)}${ws}:${ws}${literal}${ws}`;
  });
  return `${ws}{${parts.join(',')}}${ws}`;
}

/** The NewPets the run sent with the key and the server accepted with a Pet, oldest first. */
function acceptedNewPets(ctx: CheckContext): Accepted[] {
  const out: Accepted[] = [];
  for (const answer of ctx.responses) {
    const { request } = answer;
    if (routeOf(answer).op !== 'createPet' || answer.status < 200 || answer.status > 299) continue;
    if (request.authorization !== undefined || request.rawBody === undefined) continue;
    if (request.chunked || request.headers !== undefined) continue;
    let body: unknown;
    try {
      body = parseJson(request.rawBody);
    } catch {
      continue;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) continue;
    const members = Object.entries(body);
    const known = members.every(([key]) => ['name', 'categoryId', 'status'].includes(key));
    const categoryLiteral = numberText(body, 'categoryId');
    const name = (body as { name?: unknown }).name;
    if (!known || typeof name !== 'string' || categoryLiteral === undefined) continue;
    out.push({ members, categoryLiteral, name, answer });
  }
  return out;
}

/**
 * The NewPets worth spelling otherwise: a plain one under a fresh name of the run, and the first
 * accepted name beyond the BMP, with a `/` and beyond ASCII (what escapes change most).
 */
function worthSpelling(ctx: CheckContext, accepted: readonly Accepted[]): Accepted[] {
  const picked: Accepted[] = [];
  const plain = accepted.find((a) => a.members.length === 3);
  if (plain !== undefined) {
    const name = ctx.fixtures.nextName();
    const members = plain.members.map(([k, v]) => [k, k === 'name' ? name : v] as const);
    picked.push({ ...plain, members, name });
  }
  for (const test of [/[\u{10000}-\u{10ffff}]/u, /\//, /[^\x20-\x7e]/]) {
    const found = accepted.find((a) => test.test(a.name));
    if (found !== undefined && !picked.includes(found)) picked.push(found);
  }
  return picked;
}

/** Sends `pet` in `spelling`; the answer. */
function send(ctx: CheckContext, pet: Accepted, spelling: Spelling): Promise<HttpResponse> {
  return ctx.send({ method: 'POST', path: '/pets', rawBody: spell(pet, spelling) });
}

/** The most bytes of a body a create the server took (2xx) carried, of the run so far. */
function largestTaken(ctx: CheckContext): number {
  let most = 0;
  for (const res of ctx.responses) {
    if (routeOf(res).op !== 'createPet' || res.status < 200 || res.status > 299) continue;
    most = Math.max(most, sentBytes(res.request)?.length ?? 0);
  }
  return most;
}

/** The UTF-8 bytes of each letter a long name is filled with, on average. */
const FILL_LETTER_BYTES = new TextEncoder().encode(FILL_LETTERS).length / FILL_LETTERS.length;

/**
 * Whether the server takes a plain NewPet body of `bytes` bytes: one it took already, or, once a
 * run, a NewPet whose name (letters beyond ASCII) makes its body at least `largest` bytes, the
 * largest respelling the check sends.
 */
async function takesBodyOf(ctx: CheckContext, bytes: number, largest: number): Promise<boolean> {
  if (bytes <= largestTaken(ctx)) return true;
  const taken = await ctx.memo('createPet.json-spellings: a plain body as large', async () => {
    const pet = ctx.fixtures.nextPet(undefined, Math.ceil(largest / FILL_LETTER_BYTES));
    const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: newPetJson(pet) });
    return res.status >= 200 && res.status <= 299;
  });
  return taken && bytes <= largestTaken(ctx);
}

/**
 * Why `res` is a refusal of a body for its size, or undefined: a `413`, or a `400` to a body
 * larger than any plain NewPet the server takes, as Django's upload limit answers. Escapes make
 * a body several times larger, and a size limit is the server's own (§8).
 */
async function refusedForSize(
  ctx: CheckContext,
  res: HttpResponse,
  largest: number,
): Promise<string | undefined> {
  if (res.status === 413) return '413: larger than the server takes';
  const bytes = sentBytes(res.request)?.length ?? 0;
  if (res.status !== 400 || (await takesBodyOf(ctx, bytes, largest))) return undefined;
  return `400 to ${bytes} bytes, more than a plain NewPet the server took`;
}

/** Why `res` is not the same answer as the one `pet` got in its plain spelling, or undefined. */
function otherAnswer(res: HttpResponse, pet: Accepted): string | undefined {
  if (res.status !== pet.answer.status) return `answered ${res.status}, not ${pet.answer.status}`;
  const shown = expectPet(res);
  const status = (pet.answer.body as { status?: string }).status;
  return difference(shown, { name: pet.name, categoryId: pet.categoryLiteral, status });
}

/** Any RFC 8259 spelling of a NewPet is that NewPet (spec §1, §4.2). */
export const jsonSpellingsSection: SpecSection = {
  rows: [
    {
      section: '§1, §4.2',
      statement:
        'A request body is JSON (RFC 8259): any valid spelling of one NewPet is that NewPet',
      oracle:
        'a NewPet accepted once is accepted again, with the same answer, in other spellings; a number is never respelled (many correct parsers refuse 1E2 or 7.0 for an int64)',
      inputs:
        'each accepted NewPet worth it (a plain one, names beyond the BMP, with /, beyond ASCII) with every character a \\u escape (surrogate pairs beyond the BMP), / as \\/, white space between tokens, members in reverse order',
      checks: ['createPet.json-spellings'],
    },
  ],
  checks: [
    check({
      id: 'createPet.json-spellings',
      title:
        'accepts a NewPet it accepted again when written in other RFC 8259 spellings (\\u escapes, surrogate pairs, \\/, white space between tokens, another member order), with the same answer (a refusal for size, a 413 or a 400 to a body larger than any it took, is not judged)',
      async run(ctx) {
        const pets = worthSpelling(ctx, acceptedNewPets(ctx));
        if (pets.length === 0) skip('no NewPet was accepted (see createPet.created)');
        const judged: string[] = [];
        const sized: string[] = [];
        // Every other spelling is shorter than all of them at once.
        const largest = Math.max(
          ...pets.map((pet) => new TextEncoder().encode(spell(pet, ALL_AT_ONCE)).length),
        );
        await everyCase(ctx, pets, async (pet) => {
          const res = await send(ctx, pet, ALL_AT_ONCE);
          const tooLarge = await refusedForSize(ctx, res, largest);
          if (tooLarge !== undefined) {
            sized.push(`${JSON.stringify(pet.name)} (${tooLarge})`);
            return;
          }
          const why = otherAnswer(res, pet);
          if (why === undefined) {
            judged.push(JSON.stringify(pet.name));
            return;
          }
          // The same NewPet as sent before, to tell a spelling refused from a repeat refused.
          const again = await send(ctx, pet, PLAIN);
          if (otherAnswer(again, pet) !== undefined) return;
          // Each way alone, every one of them sent, to name the ways the server refuses.
          const refused: { res: HttpResponse; what: string; why: string }[] = [];
          for (const spelling of EACH) {
            const alone = await send(ctx, pet, spelling);
            const sized = (await refusedForSize(ctx, alone, largest)) !== undefined;
            const whyAlone = sized ? undefined : otherAnswer(alone, pet);
            if (whyAlone !== undefined)
              refused.push({ res: alone, what: spelling.what, why: whyAlone });
          }
          const [first, ...others] = refused;
          const [shown, what, whyShown] =
            first === undefined ? [res, ALL_AT_ONCE.what, why] : [first.res, first.what, first.why];
          const also =
            others.length === 0 ? '' : ` (and with ${others.map((o) => o.what).join('; ')})`;
          fail(
            `${described(shown, `with ${what}`)} ${whyShown}; the same NewPet written plainly is accepted${also}`,
            shown,
          );
        });
        if (judged.length === 0 && sized.length === 0) {
          skip(
            'the server refused a NewPet sent twice, so no spelling could be told from a repeat',
          );
        }
        const accepted =
          judged.length === 0
            ? []
            : [
                `NewPets named ${judged.join(', ')} accepted in other spellings, with the same answer`,
              ];
        const refused = sized.length === 0 ? [] : [`refused for their size: ${sized.join(', ')}`];
        return pass([...accepted, ...refused].join('; '));
      },
    }),
  ],
};
