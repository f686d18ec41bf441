import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

describe('the bench', () => {
  it('imports nothing of the API: it starts apps/api/dist/main.js as the service starts', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files).toContain('servers.ts');
    for (const file of files) {
      const text = readFileSync(`${SRC}${file}`, 'utf8');
      expect(text, file).not.toMatch(/from '@animal-store\/api|import\('@animal-store\/api/);
      expect(text, file).not.toMatch(/apps\/api\/(src|dist)\/(?!main\.js)/);
    }
  });
});
