import {
  API_PREFIX,
  formatListPetsQuery,
  type ResolvedListPetsQuery,
} from '@animal-store/contract';

/** RFC 8288 `Link` value for the page after `lastId`, repeating the caller's query. */
export function nextPageLink(query: ResolvedListPetsQuery, lastId: number): string {
  return `<${API_PREFIX}/pets?${formatListPetsQuery({ ...query, after: lastId })}>; rel="next"`;
}
