import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECTION_ANCHORS, SPECIFICATION_URL, sectionLinks } from '../src/report/spec-links.js';
import { CHECKS } from '../src/sections/index.js';
import { KIT_VERSION } from '../src/version.js';

const DOCS = new URL('../../../docs/specification.md', import.meta.url);
const text = readFileSync(DOCS, 'utf8');

/** The anchor GitHub gives a Markdown heading. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

const headings = new Map(
  [...text.matchAll(/^#{2,3} (§?(\d+(?:\.\d+)?)\.? .*)$/gm)].map((m) => [
    `§${m[2]}`,
    slug(m[1] as string),
  ]),
);

describe('the contract the kit ships and cites', () => {
  it('gives every section the checks cite an anchor that is a heading of docs/specification.md', () => {
    const cited = new Set(CHECKS.flatMap((check) => check.section.match(/§\d+(?:\.\d+)?/g) ?? []));
    expect(cited.size).toBeGreaterThan(8);
    for (const section of cited) {
      expect(SECTION_ANCHORS[section], section).toBeDefined();
      expect(SECTION_ANCHORS[section], section).toBe(headings.get(section));
    }
    for (const [section, anchor] of Object.entries(SECTION_ANCHORS)) {
      expect(headings.get(section), section).toBe(anchor);
    }
  });

  it('ships an exact copy of docs/specification.md at its root (made at build)', () => {
    expect(readFileSync(new URL('../specification.md', import.meta.url), 'utf8')).toBe(text);
  });

  it('links the specification as published at the release tag of the kit, never a local file', () => {
    expect(SPECIFICATION_URL).toBe(
      `https://github.com/animal-store/animal-store/blob/@animal-store/conformance@${KIT_VERSION}/docs/specification.md`,
    );
  });

  it('links each section a check names', () => {
    expect(sectionLinks('§4.2, §7')).toEqual([
      `${SPECIFICATION_URL}#42-add-an-animal-post-pets-createpet`,
      `${SPECIFICATION_URL}#7-errors`,
    ]);
    expect(sectionLinks('RFC 9110 §15.3.2')).toEqual([]);
  });
});
