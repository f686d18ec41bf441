import { API_PREFIX, type ResolvedListPetsQuery } from '@animal-store/contract';

/** RFC 8288 `Link` value for the page after `lastId`, repeating the caller's filter. */
export function nextPageLink(query: ResolvedListPetsQuery, lastId: number): string {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.status !== undefined) params.set('status', query.status);
  params.set('after', String(lastId));
  return `<${API_PREFIX}/pets?${params}>; rel="next"`;
}
