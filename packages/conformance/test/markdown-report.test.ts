import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownCode, markdownText, renderMarkdown } from '../src/report/markdown.js';
import { SPECIFICATION_URL } from '../src/report/spec-links.js';
import { READ_ONLY_SKIP } from '../src/types.js';
import { reportOf, result, traffic } from './support/report.js';

// The Markdown report a CI job summary shows, from reports built by hand: what comes first, what
// is folded, and a server's text shown as sent.

/** The lines of `markdown` from the one that is `from` up to (not including) the next blank one. */
function block(markdown: string, from: string): string[] {
  const lines = markdown.split('\n');
  const at = lines.indexOf(from);
  expect(at, `no line ${from}`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', at);
  return lines.slice(at, end === -1 ? undefined : end);
}

const failure = (id: string, message: string, section = '§4.1') =>
  result({ id, outcome: 'fail', message, section, title: `${id} works` });

describe('the Markdown report', () => {
  it('opens with the verdict, the run, and the counts', () => {
    const markdown = renderMarkdown(
      reportOf([result({ id: 'a', outcome: 'pass' }), failure('b', 'answered 500')], {
        readOnly: true,
        strict: true,
      }),
    );
    expect(markdown.split('\n').slice(0, 7)).toEqual([
      '## Animal Store conformance: FAIL',
      '',
      'http://127.0.0.1:8080/v1: kit 1.2.3, run r1a2b3, seed 42 (`--seed 42` replays its cases), 4.3 s, read-only, strict',
      '',
      '| passed | failed | advisories | skipped |',
      '|---|---|---|---|',
      '| 1 | 1 | 0 | 0 |',
    ]);
    expect(renderMarkdown(reportOf([]))).toContain('(`--seed 42` replays its cases), 4.3 s\n');
    expect(renderMarkdown(reportOf([], { strict: true }))).toContain('4.3 s, strict\n');
  });

  it('is the heading, the counts and the pets for a run with nothing to show', () => {
    const head = [
      '## Animal Store conformance: PASS',
      '',
      'http://127.0.0.1:8080/v1: kit 1.2.3, run r1a2b3, seed 42 (`--seed 42` replays its cases), 4.3 s',
      '',
      '| passed | failed | advisories | skipped |',
      '|---|---|---|---|',
    ];
    expect(renderMarkdown(reportOf([]))).toBe(
      [...head, '| 0 | 0 | 0 | 0 |', '', 'Created no pets.', ''].join('\n'),
    );
    expect(
      renderMarkdown(reportOf([result({ id: 'ok', outcome: 'pass', section: 'RFC 9110' })])),
    ).toBe(
      [
        ...head,
        '| 1 | 0 | 0 | 0 |',
        '',
        '<details>',
        '<summary>1 passed</summary>',
        '',
        '- `ok` (RFC 9110)',
        '',
        '</details>',
        '',
        'Created no pets.',
        '',
      ].join('\n'),
    );
  });

  it('names the traffic judged in place of the run', () => {
    const markdown = renderMarkdown(
      reportOf([], { traffic: traffic({ exercised: ['a'], notExercised: ['b'] }) }),
    );
    expect(block(markdown, 'http://127.0.0.1:8080/v1: kit 1.2.3')).toEqual([
      'http://127.0.0.1:8080/v1: kit 1.2.3',
    ]);
    expect(
      block(markdown, "- traffic of run.har: 3 exchanges, 3 of the spec's operations judged"),
    ).toEqual([
      "- traffic of run.har: 3 exchanges, 3 of the spec's operations judged",
      '- Exercised (1): a',
      '- Not exercised (1): b',
    ]);
    expect(markdown).not.toContain('seed');
  });

  it('puts each failure first, with its section linked and its message as it was', () => {
    const markdown = renderMarkdown(
      reportOf([
        result({ id: 'ok', outcome: 'pass', section: '§5' }),
        failure('listPets.x', 'answered 500\nreplay: curl ...', '§4.1, §7'),
      ]),
    );
    expect(block(markdown, '### Failed (must)')).toEqual(['### Failed (must)']);
    expect(markdown.split('\n### Failed (must)\n\n')[1]?.split('\n').slice(0, 9)).toEqual([
      '#### `listPets.x`: listPets.x works',
      '',
      `must, §4.1, §7 ([1](${SPECIFICATION_URL}#41-list-animals-get-pets-listpets), [2](${SPECIFICATION_URL}#7-errors))`,
      '',
      '```text',
      'answered 500',
      'replay: curl ...',
      '```',
      '',
    ]);
    expect(markdown.indexOf('### Failed')).toBeLessThan(markdown.indexOf('<summary>1 passed'));
    expect(block(markdown, '<details>').length).toBe(2);
    expect(markdown).toContain('<summary>1 passed</summary>\n\n- `ok` (§5)\n\n</details>');
  });

  it('cites a section without a heading in the specification as it is', () => {
    const markdown = renderMarkdown(reportOf([failure('a', 'm', 'RFC 9110 §15')]));
    expect(markdown).toContain('\n\nmust, RFC 9110 §15\n\n```text\nm\n```\n');
  });

  it('calls every failed check a failure under --strict, should ones too', () => {
    const markdown = renderMarkdown(reportOf([failure('a', 'm')], { strict: true }));
    expect(markdown).toContain('\n### Failed (checks)\n');
  });

  it('shows failures of one cause once, the others folded under it', () => {
    const cause = 'not a valid Error body: status is required';
    const markdown = renderMarkdown(
      reportOf([
        failure('a', `GET /pets?limit=0 answered 400: ${cause}`),
        failure('b', 'answered 500'),
        failure('c', `POST /pets answered 400: ${cause}`, '§7'),
        failure('d', `GET /pets/x answered 400: ${cause}`, '§4.3'),
      ]),
    );
    const failed = markdown.split('\n### Failed (must)\n\n')[1] as string;
    expect(failed.indexOf(`**Root cause of 3 failures:** ${cause}\n\n#### \`a\``)).toBe(0);
    expect(failed).toContain(
      '<summary>the same cause fails 2 more checks</summary>\n\n- `c` (§7)\n- `d` (§4.3)\n\n</details>',
    );
    expect(failed.indexOf('#### `a`')).toBeLessThan(failed.indexOf('#### `b`'));
    expect(failed).not.toContain('#### `c`');
    const two = renderMarkdown(
      reportOf([
        failure('a', `x answered 400: ${cause}`),
        failure('c', `y answered 400: ${cause}`),
      ]),
    );
    expect(two).toContain('<summary>the same cause fails 1 more check</summary>');
  });

  it('lists the must checks that could not run, and what gives a full verdict', () => {
    const markdown = renderMarkdown(
      reportOf([result({ id: 'listPets.newest', outcome: 'skip', message: 'out of reach' })], {
        verdict: 'incomplete',
        notRun: [{ id: 'listPets.newest', reason: 'out of reach' }],
        fullVerdict: 'an empty store',
      }),
    );
    expect(markdown).toContain(
      '\n### Not run (must): 1 must check could not run, so the run is INCOMPLETE\n\n#### `listPets.newest`',
    );
    expect(markdown).toContain('```\n\nFor a full verdict: an empty store\n\nCreated no pets.\n');
    // A check not run is not counted again among the skipped.
    expect(markdown).not.toContain('skipped</summary>');
    const without = renderMarkdown(
      reportOf([result({ id: 'n', outcome: 'skip' })], {
        notRun: [{ id: 'n', reason: 'r' }],
      }),
    );
    expect(without).toContain('```\n\nCreated no pets.\n');
    const withSkip = renderMarkdown(
      reportOf([result({ id: 'n', outcome: 'skip' }), result({ id: 's', outcome: 'skip' })], {
        notRun: [{ id: 'n', reason: 'r' }],
      }),
    );
    expect(withSkip).toContain('<summary>1 skipped</summary>\n\n#### `s`');
    expect(withSkip).not.toContain('that create pets');
    expect(withSkip).toContain('```\n\n</details>\n\nCreated no pets.\n');
  });

  it('folds the advisories, the skipped and the checks a read-only run leaves out', () => {
    const markdown = renderMarkdown(
      reportOf([
        result({ id: 'adv', outcome: 'advisory', level: 'should' }),
        result({ id: 'adv2', outcome: 'advisory', level: 'should' }),
        result({ id: 'skipped', outcome: 'skip', message: 'rate limited' }),
        result({ id: 'w1', outcome: 'skip', message: READ_ONLY_SKIP }),
        result({ id: 'w2', outcome: 'skip', message: READ_ONLY_SKIP }),
      ]),
    );
    expect(markdown).toContain(
      '<summary>2 advisories (should: recommended where the spec leaves a gap)</summary>\n\n#### `adv`',
    );
    expect(markdown).toContain('<summary>3 skipped</summary>\n\n#### `skipped`');
    expect(markdown).toContain('\n2 checks that create pets (--read-only)\n\n</details>\n');
    expect(markdown).not.toContain('#### `w1`');
    const one = renderMarkdown(
      reportOf([
        result({ id: 'adv', outcome: 'advisory' }),
        result({ id: 'w1', outcome: 'skip', message: READ_ONLY_SKIP }),
      ]),
    );
    expect(one).toContain('<summary>1 advisory (should');
    expect(one).toContain(
      '<summary>1 skipped</summary>\n\n1 check that create pets (--read-only)\n',
    );
    expect(renderMarkdown(reportOf([result({ id: 'p', outcome: 'pass' })]))).not.toContain(
      'skipped</summary>',
    );
  });

  it('gives each hint as a quote, and says which pets the run left', () => {
    const markdown = renderMarkdown(
      reportOf([], {
        hints: ['the key was refused', 'second'],
        created: { count: 2, namePrefix: 'cf-x', ids: ['1', '2'] },
      }),
    );
    expect(markdown).toContain('\n> **Hint:** the key was refused\n\n> **Hint:** second\n\n');
    expect(
      markdown.endsWith(
        'Created 2 pets named `cf-x<n>`; they stay on the server (the spec has no delete).\n',
      ),
    ).toBe(true);
    expect(
      renderMarkdown(reportOf([], { created: { count: 1, namePrefix: 'cf-x', ids: ['1'] } })),
    ).toContain('Created 1 pet named');
    expect(renderMarkdown(reportOf([])).endsWith('\nCreated no pets.\n')).toBe(true);
  });

  it('shows a server’s text as sent, never as markup', () => {
    const hostile = '<img src=x> **bold** _i_ `code` [l](javascript:x) a|b ~s~ \\ &amp;\nline';
    const text = markdownText(hostile);
    expect(text).toBe(
      '&lt;img src=x&gt; \\*\\*bold\\*\\* \\_i\\_ \\`code\\` \\[l\\](javascript:x) a\\|b \\~s\\~ \\\\ &amp;amp; line',
    );
    const html = new MarkdownIt({ html: true }).renderInline(text);
    expect(html).not.toMatch(/<img|<strong|<em|<code|<a |<s>/);
    expect(markdownText('a\r\nb\rc\nd')).toBe('a b c d');
  });

  it('fences a message with more backticks than any run in it', () => {
    expect(markdownCode('plain')).toBe('```text\nplain\n```');
    expect(markdownCode('a ```` b `` c')).toBe('`````text\na ```` b `` c\n`````');
    const html = new MarkdownIt().render(markdownCode('x\n```\n<b>y</b>'));
    expect(html).toBe(
      '<pre><code class="language-text">x\n```\n&lt;b&gt;y&lt;/b&gt;\n</code></pre>\n',
    );
  });
});
