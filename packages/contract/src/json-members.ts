/** Distinct member names in every object of a parsed JSON value (iterative: any depth). */
function memberNames(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    for (const key of Object.keys(next)) {
      count++;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/** Colons anywhere in `text`, inside strings too. */
function colons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

/** A JSON pointer token (RFC 6901). */
const pointerToken = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

type Level = { names: Set<string>; name: string } | { index: number };

/**
 * The JSON pointer of the first member of `text` whose name its object already has
 * (`{"name":"a","name":"b"}` gives `/name`), or `undefined` when every object names each member
 * once. `text` is valid JSON and `value` what it parses to. JSON.parse keeps the last of two
 * members silently; RFC 8259 §4 says names SHOULD be unique, and receivers differ on which wins.
 *
 * Cheap when nothing repeats: every member name is followed by a colon, so a text with no more
 * colons than `value` has member names holds no repeated one. Only otherwise (a colon in a
 * string, or a repeat) is the text walked.
 */
export function repeatedMemberName(text: string, value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (colons(text) === memberNames(value)) return undefined;
  const levels: Level[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') levels.push({ names: new Set(), name: '' });
    else if (c === '[') levels.push({ index: 0 });
    else if (c === '}' || c === ']') levels.pop();
    else if (c === ',') {
      const level = levels.at(-1);
      if (level && 'index' in level) level.index++;
    } else if (c === '"') {
      const start = i;
      let escaped = false;
      for (i++; text[i] !== '"'; i++) {
        if (text[i] === '\\') {
          escaped = true;
          i++;
        }
      }
      let next = i + 1;
      while (
        text[next] === ' ' ||
        text[next] === '\t' ||
        text[next] === '\n' ||
        text[next] === '\r'
      ) {
        next++;
      }
      const level = levels.at(-1);
      if (text[next] !== ':' || !level || !('names' in level)) continue;
      const raw = text.slice(start, i + 1);
      const name = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (level.names.has(name)) {
        const path = levels
          .slice(0, -1)
          .map((outer) => ('names' in outer ? pointerToken(outer.name) : String(outer.index)));
        return `/${[...path, pointerToken(name)].join('/')}`;
      }
      level.names.add(name);
      level.name = name;
    }
  }
  return undefined;
}
