import { ID_MAX, validateSpecErrorBody } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import type { Check } from '../types.js';
import { brief, check, described, fail, notJsonReason, pass } from './support.js';

// These checks observe every answer the kit received during the run, whichever check asked.
// Run alone (`--only errors`) they first provoke a 401 and a 404 so there is something to judge.

/** Every error answer seen so far (a retried 429 is never one of them). */
async function errorAnswers(ctx: CheckContext): Promise<HttpResponse[]> {
  await ctx.memo('errors: provoke', async () => {
    await ctx.send({ method: 'GET', path: '/pets?limit=1', authorization: null });
    await ctx.send({ method: 'GET', path: `/pets/${ID_MAX}` });
  });
  return ctx.responses.filter((r) => r.status >= 400);
}

/** Fails with the first offender and how many there were, or passes. */
function verdict(offenders: readonly { res: HttpResponse; why: string }[], total: number) {
  const [first] = offenders;
  if (first === undefined) return pass(`${total} error answers checked`);
  const more = offenders.length > 1 ? ` (and ${offenders.length - 1} more)` : '';
  return fail(
    `${described(first.res)} answered ${first.res.status}: ${first.why}${more}`,
    first.res,
  );
}

/** Error answers across the run (spec §7). */
export const errorsChecks: readonly Check[] = [
  check({
    id: 'errors.json-body',
    title: 'every error answer has a JSON body with a JSON Content-Type',
    section: '§1, §7',
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const answers = await errorAnswers(ctx);
      const offenders = answers.flatMap((res) => {
        const why = notJsonReason(res);
        return why === undefined ? [] : [{ res, why }];
      });
      return verdict(offenders, answers.length);
    },
  }),
  check({
    id: 'errors.error-schema',
    title: 'every JSON error answer is a valid Error (code, message, status)',
    section: '§2, §7',
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const answers = (await errorAnswers(ctx)).filter((r) => notJsonReason(r) === undefined);
      const offenders = answers.flatMap((res) => {
        const checked = validateSpecErrorBody(res.body);
        return checked.ok ? [] : [{ res, why: `not an Error: ${brief(checked.details)}` }];
      });
      return verdict(offenders, answers.length);
    },
  }),
  check({
    id: 'errors.status-matches',
    title: 'the Error body’s status equals the HTTP status',
    section: '§2',
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const answers = (await errorAnswers(ctx)).filter(
        (r) => notJsonReason(r) === undefined && validateSpecErrorBody(r.body).ok,
      );
      const offenders = answers.flatMap((res) => {
        const status = (res.body as { status: number }).status;
        return status === res.status ? [] : [{ res, why: `the Error body says status ${status}` }];
      });
      return verdict(offenders, answers.length);
    },
  }),
  check({
    id: 'errors.no-server-errors',
    title: 'no request the kit sends is answered with a 5xx',
    section: '§7',
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const answers = await errorAnswers(ctx);
      const offenders = answers.flatMap((res) =>
        res.status >= 500 ? [{ res, why: 'a server error' }] : [],
      );
      return verdict(offenders, ctx.responses.length);
    },
  }),
];
