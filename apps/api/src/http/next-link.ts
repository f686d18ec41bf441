import { API_PREFIX, type ResolvedListPetsQuery } from '@animal-store/contract';

/**
 * RFC 8288 `Link` value for the page after `lastId`, repeating the caller's filter. The query is
 * written out (integers and a status): every full page of `GET /v1/pets` makes one, and
 * URLSearchParams costs several times as much for the same text.
 */
export function nextPageLink(query: ResolvedListPetsQuery, lastId: number): string {
  const status = query.status === undefined ? '' : `&status=${encodeURIComponent(query.status)}`;
  return `<${API_PREFIX}/pets?limit=${query.limit}${status}&after=${lastId}>; rel="next"`;
}
