import { describe, expect, it } from 'vitest';
import { auth, json, startTestApi } from './helpers/api.js';

const api = await startTestApi();

describe('a name holding control, bidirectional or invisible characters', () => {
  it.each([
    ['a NUL', 'Rex\u0000Max'],
    ['a newline', 'Rex\nMax'],
    ['a right-to-left override', 'Rex\u202eMax'],
    ['only invisible characters', '\u200b\u2060\u200d'],
  ])('with %s is stored and returned exactly as sent, JSON-escaped', async (_, name) => {
    const created = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const res = await fetch(`${api.base}/pets/${id}`, { headers: auth });
    const text = await res.text();
    // Control characters travel as escapes, never raw, so a reader's JSON parser gets them back.
    expect([...text].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect((JSON.parse(text) as { name: string }).name).toBe(name);
    // No log line holds a name: nothing there for a newline to forge.
    expect(JSON.stringify(api.logs)).not.toContain('Max');
  });
});
