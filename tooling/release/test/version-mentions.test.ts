import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findVersionMentions,
  fixVersionMentions,
  mentionFiles,
  wrongVersionMentions,
} from '../src/version-mentions.js';
import { REPO_ROOT, tempDir, writeFile } from './support/temp.js';

describe('versions named in the READMEs, the Action and the docs', () => {
  it("are every package's own version, in this repository", () => {
    expect(wrongVersionMentions(REPO_ROOT)).toEqual([]);
  });

  it("reads the READMEs, the docs, RELEASING.md, the Action and the kit's download example", () => {
    const files = mentionFiles(REPO_ROOT);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'RELEASING.md',
        'action.yml',
        'docs/decisions.md',
        'packages/conformance/README.md',
        'packages/contract/README.md',
        'packages/client/README.md',
      ]),
    );
    expect(files.filter((file) => /CHANGELOG|node_modules|^\.changeset\//.test(file))).toEqual([]);
    const kit = findVersionMentions(REPO_ROOT).filter(
      (m) => m.file === 'packages/conformance/README.md',
    );
    // The single executable's download, and the JSON report's example.
    expect(kit.length).toBeGreaterThanOrEqual(2);
  });
});

describe('the version mention check, on a workspace of its own', () => {
  const workspace = () => {
    const root = tempDir('mentions');
    writeFile(root, 'pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
    writeFile(
      root,
      'packages/kit/package.json',
      '{ "name": "@animal-store/kit", "version": "1.4.0" }',
    );
    writeFile(
      root,
      'packages/lib/package.json',
      '{ "name": "@animal-store/lib", "version": "0.3.1" }',
    );
    return root;
  };

  it('finds a wrong version in every form a reader copies, and leaves other versions alone', () => {
    const root = workspace();
    writeFile(
      root,
      'README.md',
      [
        'npx @animal-store/kit@1.3.0 --help, tag @animal-store/lib@0.3.1',
        'base=".../download/%40animal-store%2Fkit%401.2.0"',
        'caret ranges (`^0.2.0`) and Node 22.12.0 name no package; @animal-store/other@9.9.9 is not ours',
        '',
      ].join('\n'),
    );
    writeFile(root, 'packages/kit/README.md', 'version=1.0.0   # the kit version\n');
    writeFile(
      root,
      'packages/kit/docs/report.md',
      '{ "name": "@animal-store/lib", "version": "0.2.0" }\n',
    );
    writeFile(root, 'packages/kit/CHANGELOG.md', '## 1.0.0 @animal-store/kit@1.0.0\n');
    writeFile(root, '.changeset/x.md', '@animal-store/kit@2.0.0\n');
    const wrong = wrongVersionMentions(root).map(
      (m) => `${m.file}:${m.line} ${m.package} ${m.found}`,
    );
    expect(wrong.sort()).toEqual([
      'README.md:1 @animal-store/kit 1.3.0',
      'README.md:2 @animal-store/kit 1.2.0',
      'packages/kit/README.md:1 @animal-store/kit 1.0.0',
      'packages/kit/docs/report.md:1 @animal-store/lib 0.2.0',
    ]);
  });

  it('rewrites the wrong ones to the packages versions and nothing else', () => {
    const root = workspace();
    const text =
      'a @animal-store/kit@1.3.0 b @animal-store/lib@0.3.1 c `^0.2.0` @animal-store/lib@0.2.0\n';
    writeFile(root, 'README.md', text);
    expect(fixVersionMentions(root)).toEqual(['README.md']);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe(
      'a @animal-store/kit@1.4.0 b @animal-store/lib@0.3.1 c `^0.2.0` @animal-store/lib@0.3.1\n',
    );
    expect(wrongVersionMentions(root)).toEqual([]);
    expect(fixVersionMentions(root)).toEqual([]);
  });
});
