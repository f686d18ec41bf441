import { ID_MAX } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { ANSWER_ORACLES, type Oracle, PetModel } from '../oracles.js';
import type { Check } from '../types.js';
import { check, described, fail, pass } from './support.js';

// These checks report the oracles, which judge every answer the kit received during the run,
// whichever check asked. Run alone (`--only errors`) they first provoke a 401 and a 404 so there
// is something to judge.

/** Every answer of the run so far (a retried 429 is never one of them). */
async function answers(ctx: CheckContext): Promise<readonly HttpResponse[]> {
  await ctx.memo('errors: provoke', async () => {
    await ctx.send({ method: 'GET', path: '/pets?limit=1', authorization: null });
    await ctx.send({ method: 'GET', path: `/pets/${ID_MAX}` });
  });
  return ctx.responses;
}

/** Fails with the first offender and how many there were, or passes. */
function verdict(offenders: readonly { res: HttpResponse; why: string }[], judged: string) {
  const [first] = offenders;
  if (first === undefined) return pass(judged);
  const more = offenders.length > 1 ? ` (and ${offenders.length - 1} more)` : '';
  return fail(
    `${described(first.res)} answered ${first.res.status}: ${first.why}${more}`,
    first.res,
  );
}

function oracleCheck(oracle: Oracle): Check {
  return check({
    id: oracle.id,
    title: oracle.title,
    section: oracle.section,
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const all = await answers(ctx);
      const offenders = all.flatMap((res) => {
        const why = oracle.judge(res);
        return why === undefined ? [] : [{ res, why }];
      });
      return verdict(offenders, `${all.length} answers judged`);
    },
  });
}

/** The oracles over every answer of the run (spec §1, §2, §7), and the model of created pets. */
export const errorsChecks: readonly Check[] = [
  ...ANSWER_ORACLES.map(oracleCheck),
  check({
    id: 'errors.created-pets-agree',
    title:
      'every pet the run created agrees everywhere it is shown: the 201 body, getPet and each list entry give the name sent, exactly, the categoryId sent and one status, the one it is listed under (when a list can reach it) and no other',
    section: '§2, §4.1, §4.2, §4.3',
    level: 'must',
    group: 'errors',
    writes: false,
    async run(ctx) {
      const model = new PetModel();
      const offenders = (await answers(ctx)).flatMap((res) => {
        const why = model.judge(res);
        return why === undefined ? [] : [{ res, why }];
      });
      return verdict(offenders, `${model.pets.size} created pets followed`);
    },
  }),
];
