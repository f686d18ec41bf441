import { holdsUnpairedSurrogate } from '@animal-store/contract';
import { inDoubleQuotes, inSingleQuotes } from './http/shell-quotes.js';

/** What stands in a written text where the API key (or a value holding it) was. */
export const REDACTED = '[redacted key]';

/**
 * Secrets shorter than this are not hidden: replacing every occurrence of a one- or
 * two-character string would make every text unreadable, and such a key is no secret anyway.
 */
export const SECRET_MIN = 4;

/**
 * The forms a secret takes in text the kit writes: as is, URL-encoded, JSON-escaped, and as a
 * replay line's shell words write it (`\$` and the like inside "…", `'\''` inside '…'). One
 * holding an unpaired surrogate (a HAR file may carry a `\uD800` escape anywhere) has no
 * URL-encoded form.
 */
function formsOf(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const shell = [inDoubleQuotes(secret), inSingleQuotes(secret)];
  return holdsUnpairedSurrogate(secret)
    ? [secret, escaped, ...shell]
    : [secret, encodeURIComponent(secret), escaped, ...shell];
}

/**
 * The one place every text the kit writes passes through: reports of every format, replay lines,
 * messages, progress and errors. It hides the API key and every `Authorization` value the kit
 * built from it, whatever a server echoed back, including the start of one cut short by `…`.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private sorted: string[] = [];

  /**
   * `kept`: the kit's own words (its check ids), written as they are even where a secret lies
   * inside one: a key such as `key-a` is in `auth.listPets.key-appended`, which a report and
   * `--expect-fail` must still name. They are public, so keeping them shows nothing of a key.
   */
  constructor(
    secrets: readonly string[] = [],
    private readonly kept: readonly string[] = [],
  ) {
    for (const secret of secrets) this.add(secret);
  }

  /** Hides `secret` (and its encoded forms) from now on. */
  add(secret: string): void {
    if (secret.length < SECRET_MIN) return;
    let added = false;
    for (const form of formsOf(secret)) {
      if (!this.secrets.has(form)) {
        this.secrets.add(form);
        added = true;
      }
    }
    // Longest first, so that `Bearer <key>` goes as one piece before `<key>` alone.
    if (added) this.sorted = [...this.secrets].sort((a, b) => b.length - a.length);
  }

  /**
   * `text` with every secret, and every start of one cut short by an ellipsis, replaced. Secrets
   * that overlap (`Bearer <key>` echoed, where `Bearer <key minus its last character>` is a secret
   * too) go as one piece: replacing one first would leave the other's rest in the open.
   */
  text(text: string): string {
    const spans: [number, number][] = [];
    for (const secret of this.sorted) {
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
        spans.push([at, at + secret.length]);
      }
    }
    let out = text;
    const keptSpans = spans.length > 0 ? this.keptSpans(text) : [];
    const hidden = spans.filter(
      ([start, end]) => !keptSpans.some(([from, to]) => from <= start && end <= to),
    );
    if (hidden.length > 0) {
      hidden.sort((a, b) => a[0] - b[0]);
      const merged: [number, number][] = [];
      for (const [start, end] of hidden) {
        const last = merged.at(-1);
        if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
        else merged.push([start, end]);
      }
      out = '';
      let from = 0;
      for (const [start, end] of merged) {
        out += `${text.slice(from, start)}${REDACTED}`;
        from = end;
      }
      out += text.slice(from);
    }
    if (out.includes('…')) {
      for (const secret of this.sorted) {
        for (let n = secret.length - 1; n >= SECRET_MIN; n--) {
          const cut = `${secret.slice(0, n)}…`;
          if (out.includes(cut)) out = out.replaceAll(cut, `${REDACTED}…`);
        }
      }
    }
    return out;
  }

  /**
   * Where `text` holds one of the kept words as a word of its own: not inside a longer run of a
   * check id's characters, which a server's echo of a key beside other text could form.
   */
  private keptSpans(text: string): [number, number][] {
    const spans: [number, number][] = [];
    // A full stop after a word ends a sentence unless an id goes on after it.
    const before = (at: number) => /[\w.-]/.test(text.charAt(at - 1));
    const after = (end: number) => /^(?:[\w-]|\.\w)/.test(text.slice(end, end + 2));
    for (const word of this.kept) {
      for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
        const end = at + word.length;
        if (!before(at) && !after(end)) spans.push([at, end]);
      }
    }
    return spans;
  }

  /** A copy of `value` (plain data: objects, arrays, strings, numbers) with every string redacted. */
  deep<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.deep(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, this.deep(item)]),
      ) as T;
    }
    return value;
  }
}
