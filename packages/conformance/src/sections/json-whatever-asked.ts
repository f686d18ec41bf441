// Every body is JSON (spec §1), whatever a client asks for. Frameworks that negotiate answer
// another type when asked for it: XML once an XML mapper is on the class path (Spring's
// jackson-dataformat-xml, ASP.NET Core's XML formatters), JavaScript for a JSONP `callback`
// (Express's res.jsonp), the type a `format` parameter names (Django REST framework's and Rails'
// format override), UTF-16 to an Accept-Charset that prefers it (ASP.NET Core's formatters; RFC
// 8259 §8.1: JSON between systems is UTF-8). A server may refuse such a request (406, or 400
// with an Error for a parameter it does not know); a success it sends is the spec's JSON.
import type { HttpRequest } from '../http/client.js';
import { listAfterData } from './list-pets.js';
import {
  declarer,
  described,
  everyCase,
  expectError,
  expectPet,
  expectPetList,
  listedReads,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§1');

/** A way of asking for another type than JSON, named in words. */
interface Asked {
  readonly what: string;
  /** True when the request's `Accept` takes JSON. */
  readonly takesJson: boolean;
  /** `path` (with or without a query) asking so. */
  readonly request: (path: string) => HttpRequest;
}

/** `path` with `parameter` added to its query. */
const withParameter = (path: string, parameter: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${parameter}`;

const ASKED: readonly Asked[] = [
  {
    what: 'with Accept: application/xml',
    takesJson: false,
    request: (path) => ({
      method: 'GET',
      path,
      headers: { Accept: 'application/xml' },
    }),
  },
  {
    what: 'with a JSONP callback (callback=cb)',
    takesJson: true,
    request: (path) => ({
      method: 'GET',
      path: withParameter(path, 'callback=cb'),
    }),
  },
  {
    what: 'with format=xml',
    takesJson: true,
    request: (path) => ({
      method: 'GET',
      path: withParameter(path, 'format=xml'),
    }),
  },
  {
    what: 'with Accept-Charset: utf-16, utf-8;q=0.5',
    takesJson: true,
    request: (path) => ({
      method: 'GET',
      path,
      headers: { 'Accept-Charset': 'utf-16, utf-8;q=0.5' },
    }),
  },
];

/** Reads asking for another type than JSON: each success is the spec's JSON. */
export const jsonWhateverAskedSection: SpecSection = {
  rows: [
    {
      section: '§1',
      statement: 'Every answer body is JSON, whatever the client asks for',
      oracle:
        'a 2xx is the Pet array or the Pet as JSON; a 4xx refusal holds (406 to the Accept, any body; 400 to the parameter, with an Error)',
      inputs:
        'listPets and getPet with Accept: application/xml, with ?callback=cb (JSONP), with ?format=xml, and with Accept-Charset: utf-16, utf-8;q=0.5',
      checks: ['listPets.json-whatever-asked'],
    },
  ],
  checks: [
    check({
      id: 'listPets.json-whatever-asked',
      title:
        'listPets and getPet answer JSON (in UTF-8) when asked for XML (Accept: application/xml, ?format=xml), JSONP (?callback=cb) or UTF-16 (Accept-Charset: utf-16, utf-8;q=0.5), or refuse with a 4xx: no success carries another type',
      section: '§1, §4.1, §4.3',
      async run(ctx) {
        const paths = listedReads(await listAfterData(ctx, '?limit=1'));
        const reads = ASKED.flatMap((asked) => paths.map((path) => ({ asked, path })));
        const seen: string[] = [];
        await everyCase(ctx, reads, async ({ asked, path }) => {
          const res = await ctx.send(asked.request(path));
          if (res.status >= 200 && res.status <= 299) {
            if (path.includes('?')) expectPetList(res, asked.what);
            else expectPet(res, asked.what);
          }
          // A client that takes JSON gets a refusal in JSON, an Error (§7); one that asked for
          // XML alone said it cannot read one, and gets any refusal.
          if (res.status >= 400 && res.status <= 499 && asked.takesJson) {
            expectError(res, res.status, asked.what);
          }
          seen.push(`${described(res, asked.what)} answered ${res.status}`);
        });
        return pass(seen.join('; '));
      },
    }),
  ],
};
