// createPet with a NewPet written in a common extension of JSON (spec §1, §4.2): a comment, a
// trailing comma, single quotes, member names without quotes. Such a body is no JSON text (RFC
// 8259 §2), yet §9 lets a parser take extensions, and some do by default (OCaml's Yojson, Ruby's
// JSON, R's jsonlite). The spec's "bodies are JSON" asks clients for JSON and leaves a server that
// reads more in the right, so the check is a `should`: a server that takes these takes what the
// reference refuses, and its clients come to rely on it.
import type { CheckContext } from '../context.js';
import type { SentPet } from '../fixtures.js';
import {
  declarer,
  described,
  everyCase,
  expectError,
  fail,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§1, §4.2');

/** An extension of JSON, and a NewPet written in it. */
interface Extension {
  readonly what: string;
  readonly body: (pet: SentPet) => string;
}

const quoted = (text: string) => JSON.stringify(text);

/** A string in single quotes, JSON5's other string: escaped as JSON escapes it, and `'` too. */
const singleQuoted = (text: string) =>
  `'${JSON.stringify(text).slice(1, -1).replaceAll("'", "\\'")}'`;

/** The extensions parsers take most often, each alone in an otherwise valid NewPet. */
export const JSON_EXTENSIONS: readonly Extension[] = [
  {
    what: 'a block comment',
    body: (pet) => `{/* a comment */"name":${quoted(pet.name)},"categoryId":${pet.categoryId}}`,
  },
  {
    what: 'a line comment',
    body: (pet) => `{"name":${quoted(pet.name)}, // a comment\n"categoryId":${pet.categoryId}}`,
  },
  {
    what: 'a trailing comma',
    body: (pet) => `{"name":${quoted(pet.name)},"categoryId":${pet.categoryId},}`,
  },
  {
    what: 'single quotes',
    body: (pet) => `{'name':${singleQuoted(pet.name)},'categoryId':${pet.categoryId}}`,
  },
  {
    what: 'member names without quotes',
    body: (pet) => `{name:${quoted(pet.name)},categoryId:${pet.categoryId}}`,
  },
];

/** Sends a fresh NewPet in `extension`; its answer must refuse it with 400 and an Error. */
async function refused(ctx: CheckContext, extension: Extension): Promise<void> {
  const how = `written with ${extension.what}`;
  const res = await ctx.send({
    method: 'POST',
    path: '/pets',
    rawBody: extension.body(ctx.fixtures.nextPet()),
  });
  if (res.status >= 200 && res.status <= 299) {
    fail(`${described(res, how)} answered ${res.status}, expected 400: it is no JSON text`, res);
  }
  expectError(res, 400, how);
}

/** createPet refuses a NewPet written in an extension of JSON. */
export const jsonExtensionsSection: SpecSection = {
  rows: [
    {
      section: '§1, §4.2',
      statement: 'Request bodies are JSON',
      oracle:
        'a NewPet written in a common extension of JSON is refused with 400 and an Error (advisory: RFC 8259 §9 lets a parser take extensions)',
      inputs: JSON_EXTENSIONS.map((e) => e.what).join(', '),
      checks: ['createPet.json-extensions-rejected'],
    },
  ],
  checks: [
    check({
      id: 'createPet.json-extensions-rejected',
      title: `refuses a NewPet written in a common extension of JSON (${JSON_EXTENSIONS.map((e) => e.what).join(', ')}) with 400 and an Error`,
      rule: 'RFC 8259 §2: a JSON text follows its grammar (§9 lets a parser take extensions, so the spec asks no refusal)',
      async run(ctx) {
        await everyCase(ctx, JSON_EXTENSIONS, (extension) => refused(ctx, extension));
        return pass(`each of ${JSON_EXTENSIONS.length} extensions answered 400 with an Error`);
      },
    }),
  ],
};
