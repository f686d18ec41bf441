import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAULTS, MARGIN_MS } from './helpers/faults.js';

const runbook = readFileSync(
  fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)),
  'utf8',
);
const chapter = /^## Faults on the database link\n([\s\S]*?)(?=^## )/m.exec(runbook)?.[1] ?? '';
/** The chapter's sections by title. */
const sections = new Map(
  [...chapter.matchAll(/^### (.+)\n([\s\S]*?)(?=^### |$(?![\s\S]))/gm)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]),
);

describe('the runbook of faults on the database link (docs/operations.md)', () => {
  it('states the margin the fault suite holds every answer to', () => {
    expect(chapter).toContain(`\`STORE_TIMEOUT_MS\` plus ${MARGIN_MS / 1000} s`);
  });

  it('has one section per fault of the suite, and none the suite does not hold', () => {
    expect([...sections.keys()].sort()).toEqual(
      Object.values(FAULTS)
        .map((f) => f.title)
        .sort(),
    );
  });

  for (const fault of Object.values(FAULTS)) {
    it(`names what "${fault.title}" fires, leaves silent and logs, as the suite found`, () => {
      const text = sections.get(fault.title) ?? '';
      const alerts = /\*\*Alerts\*\*:([\s\S]*?)\*\*Silent\*\*:([\s\S]*?)\n\n/.exec(text);
      expect(alerts, fault.title).not.toBeNull();
      const firing = [...(alerts?.[1] ?? '').matchAll(/\[(Api\w+)\]\(#(\w+)\)/g)];
      expect(firing.map((m) => m[1]).sort()).toEqual([...fault.firing].sort());
      for (const m of firing) expect(m[2]).toBe(m[1]?.toLowerCase());
      const silent = [...(alerts?.[2] ?? '').matchAll(/Api\w+/g)].map((m) => m[0]);
      expect(silent.sort()).toEqual([...fault.silent].sort());
      if ('log' in fault) expect(text).toContain(`\`${fault.log}`);
    });
  }
});
