// A NewPet's fields are typed (spec §2), and invalid values are refused with 400 (§4.2). JSON
// leaves a member named twice to the parser (RFC 8259 §4: names SHOULD be unique; parsers take
// the first, the last, or refuse): any of those is fine, so long as what is stored is a Pet. A
// server whose validation reads one of the values and whose store reads the other (a gateway's
// schema check before an app, two parsers in one app) stores a field of another type. What a
// server makes of the invalid value alone (a number taken as a name) is
// `createPet.invalid-*`'s to judge, not this check's.
import { newPetJson } from '../fixtures.js';
import {
  declarer,
  described,
  difference,
  everyCase,
  expectCreatedOrRefused,
  expectPet,
  expectStatus,
  fail,
  idOf,
  pass,
  petFields,
  type SpecSection,
} from './support.js';

const check = declarer('§2, §4.2');

/** Each field named twice, and the invalid value (JSON text) sent beside the run's valid one. */
const FIELDS: readonly (readonly [field: 'name' | 'categoryId' | 'status', invalid: string])[] = [
  ['name', '7'],
  ['categoryId', '"x"'],
  ['status', '"lost"'],
];

/** NewPets naming a field twice, a valid value and an invalid one, in both orders. */
export const repeatedMembersSection: SpecSection = {
  rows: [
    {
      section: '§2, §4.2',
      statement:
        'A NewPet’s fields are typed, and invalid values are refused with 400; JSON leaves a repeated member name to the parser (RFC 8259 §4)',
      oracle:
        'a 4xx Error, or 201 with a Pet (whichever value the parser took), read back the same: never a field of another type stored',
      inputs:
        'name, categoryId and status each named twice, a valid value and one of another type or outside the enumeration (sent alone first), in both orders',
      checks: ['createPet.repeated-members'],
    },
  ],
  checks: [
    check({
      id: 'createPet.repeated-members',
      title:
        'answers a NewPet that names a field twice (a valid value and an invalid one the server refuses alone, in either order) with a 4xx Error, or with 201 and a Pet, read back the same: never a field of another type stored',
      async run(ctx) {
        const cases = FIELDS.flatMap(([field, invalid]) =>
          [false, true].map((invalidFirst) => ({ field, invalid, invalidFirst })),
        );
        const seen: string[] = [];
        await everyCase(ctx, cases, async ({ field, invalid, invalidFirst }) => {
          const sent = ctx.fixtures.nextPet('pending');
          const text = newPetJson(sent);
          const valid = field === 'categoryId' ? sent.categoryId : JSON.stringify(sent[field]);
          const member = `"${field}":${valid}`;
          const twice = invalidFirst
            ? `"${field}":${invalid},${member}`
            : `${member},"${field}":${invalid}`;
          const how = `with "${field}" twice, ${invalidFirst ? `${invalid} then ${valid}` : `${valid} then ${invalid}`}`;
          // The invalid value alone first: a server that takes it so is `createPet.invalid-*`'s
          // to judge, and its taking it twice says nothing more.
          const alone = await ctx.memo(`POST /pets with ${field} ${invalid} alone`, () =>
            ctx.send({
              method: 'POST',
              path: '/pets',
              rawBody: text.replace(member, `"${field}":${invalid}`),
            }),
          );
          if (alone.status >= 200 && alone.status <= 299) {
            seen.push(`${field}: ${invalid} taken alone (createPet.invalid-* judges it)`);
            return;
          }
          const res = await ctx.send({
            method: 'POST',
            path: '/pets',
            rawBody: text.replace(member, twice),
          });
          // A refusal with an Error, or a Pet, whichever value the parser took.
          expectCreatedOrRefused(res, how);
          if (res.status !== 201) {
            seen.push(`${field}: ${res.status}`);
            return;
          }
          const created = expectPet(res, how);
          const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(created)}` });
          expectStatus(read, 200, `for the pet created ${how}`);
          // The same pet as answered: the value the store took is the one validated.
          const stored = difference(expectPet(read), petFields(created));
          if (stored !== undefined) {
            fail(`${described(read)} (the pet created ${how}): ${stored}`, read);
          }
          seen.push(`${field}: ${JSON.stringify(created[field])} kept`);
        });
        return pass(seen.join(', '));
      },
    }),
  ],
};
