import type { CheckContext } from '../context.js';
import type { HttpResponse } from './client.js';
import { linkTargets } from './link.js';

/** The most pages the kit reads after a first one, following `Link: <…>; rel="next"`. */
export const MAX_LATER_PAGES = 100;

/**
 * The target of `res`'s `Link: <…>; rel="next"` (RFC 8288) resolved against its URL, when it lies
 * below the base URL: the kit sends its key nowhere else.
 */
export function nextPageUrl(res: HttpResponse, baseUrl: string): string | undefined {
  const target = linkTargets(res.headers.get('link'), 'next')[0];
  if (target === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(target, res.url);
  } catch {
    return undefined;
  }
  const base = new URL(baseUrl);
  // A base URL that is an origin has the path `/`: every path lies below it.
  const basePath = base.pathname.replace(/\/+$/, '');
  const below = url.origin === base.origin && `${url.pathname}/`.startsWith(`${basePath}/`);
  return below && url.hash === '' ? url.href : undefined;
}

/**
 * The target of `res`'s `Link: <…>; rel="next"` as written, when the kit does not follow it
 * (`nextPageUrl`: it lies outside the base URL, or is no URL), or undefined.
 */
export function unfollowedNextPage(res: HttpResponse, baseUrl: string): string | undefined {
  const target = linkTargets(res.headers.get('link'), 'next')[0];
  return target !== undefined && nextPageUrl(res, baseUrl) === undefined ? target : undefined;
}

/** One page of a list after the first: the answer and its items. */
export interface LaterPage {
  readonly res: HttpResponse;
  readonly items: readonly unknown[];
}

/**
 * The pages after `first`, one by one, as long as each names a next page (a server's paging,
 * which the spec leaves open) that answers `200` with an array; at most `MAX_LATER_PAGES`.
 * Callers stop early once they found what they look for. Pages are shared between checks while
 * the data stays the same.
 */
export async function* laterPages(
  ctx: CheckContext,
  first: HttpResponse,
): AsyncGenerator<LaterPage> {
  let res = first;
  for (let n = 0; n < MAX_LATER_PAGES; n++) {
    const url = nextPageUrl(res, ctx.baseUrl);
    if (url === undefined) return;
    const key = `GET ${url} after ${ctx.fixtures.creations} created`;
    res = await ctx.memo(key, () => ctx.send({ method: 'GET', path: url }));
    if (res.status !== 200 || !Array.isArray(res.body)) return;
    yield { res, items: res.body };
  }
}
