/** One link of an RFC 8288 `Link` header: its target and its parameters (names lower case). */
export interface Link {
  readonly target: string;
  readonly params: ReadonlyMap<string, string>;
}

const LINK = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,]*))?)*)/g;
const PARAM = /;\s*([^;,=\s]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^;,]*))?/g;

/** Parses a `Link` header value into its links (lenient: unparsable parts are left out). */
export function parseLinkHeader(value: string | null | undefined): Link[] {
  if (!value) return [];
  const links: Link[] = [];
  for (const [, target = '', rawParams = ''] of value.matchAll(LINK)) {
    const params = new Map<string, string>();
    for (const [, name = '', raw = ''] of rawParams.matchAll(PARAM)) {
      const trimmed = raw.trim();
      const unquoted = trimmed.startsWith('"')
        ? trimmed.slice(1, -1).replace(/\\(.)/g, '$1')
        : trimmed;
      const key = name.toLowerCase();
      // A parameter's first occurrence counts: RFC 8288 §3.3 has parsers ignore a later `rel`.
      if (!params.has(key)) params.set(key, unquoted);
    }
    links.push({ target, params });
  }
  return links;
}

/** The targets of the links whose `rel` includes `relation` (relation types compare case-insensitively). */
export function linkTargets(value: string | null | undefined, relation: string): string[] {
  const wanted = relation.toLowerCase();
  return parseLinkHeader(value)
    .filter((link) => (link.params.get('rel') ?? '').toLowerCase().split(/\s+/).includes(wanted))
    .map((link) => link.target);
}
