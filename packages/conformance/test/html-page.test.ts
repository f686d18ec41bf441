import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { htmlText, renderHtml } from '../src/report/html.js';
import { SPECIFICATION_URL } from '../src/report/spec-links.js';
import { reportOf, result, traffic } from './support/report.js';

// The HTML page's text, from reports built by hand: what it says and in what order, and that a
// server's text stays text. How it behaves in a browser (the filters, the CSP) is
// html-report.test.ts's, in Chromium.

const HOSTILE = `<script>alert(1)</script><img src=x onerror="x()"> 'q' & done`;
const ESCAPED =
  '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;x()&quot;&gt; &#39;q&#39; &amp; done';

/** The page's own script, between its `<script>` tags. */
const scriptOf = (html: string) => /<script>([\s\S]*)<\/script>/.exec(html)?.[1] as string;

describe('the HTML report', () => {
  it('escapes every character HTML acts on', () => {
    expect(htmlText(HOSTILE)).toBe(ESCAPED);
  });

  it("shows a server's text as text, and runs only its own script, named by hash", () => {
    const html = renderHtml(
      reportOf(
        [result({ id: `x.${HOSTILE}`, outcome: 'fail', title: HOSTILE, message: HOSTILE })],
        {
          baseUrl: `http://h/${HOSTILE}`,
          hints: [HOSTILE],
          notRun: [{ id: HOSTILE, reason: HOSTILE }],
          fullVerdict: HOSTILE,
          created: { count: 1, namePrefix: HOSTILE, ids: ['1'] },
        },
      ),
    );
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    // The base URL, hint, id and reason not run, full verdict, id (twice), title, message, name prefix.
    expect(html.split(ESCAPED).length - 1).toBe(10);
    const hash = createHash('sha256').update(scriptOf(html)).digest('base64');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'">`,
    );
  });

  it('names the verdict, the run and the counts', () => {
    const html = renderHtml(
      reportOf(
        [
          result({ id: 'p1', outcome: 'pass' }),
          result({ id: 'p2', outcome: 'pass' }),
          result({ id: 'f', outcome: 'fail' }),
          result({ id: 'a', outcome: 'advisory' }),
        ],
        { readOnly: true, strict: true },
      ),
    );
    expect(html).toContain('<title>Animal Store conformance: FAIL</title>');
    expect(html).toContain(
      '<h1>Animal Store conformance: <span class="verdict-fail">FAIL</span></h1>',
    );
    expect(html).toContain(
      '<p class="meta">http://127.0.0.1:8080/v1: kit 1.2.3, run r1a2b3, seed 42 (<code>--seed 42</code> replays its cases), started 2026-12-01T10:00:00.000Z, 4.3 s, read-only, strict</p>',
    );
    expect(html).toContain(
      '<table class="counts"><tr><th>failed</th><th>advisory</th><th>skipped</th><th>passed</th></tr><tr><td id="count-fail">1</td><td id="count-advisory">1</td><td id="count-skip">0</td><td id="count-pass">2</td></tr></table>',
    );
    expect(html).toContain(
      '<label><input type="checkbox" name="outcome" value="pass" checked> passed (2)</label>',
    );
    expect(html).toContain('<p><span id="shown">4</span> of 4 checks shown</p>');
    expect(html).toContain('checked> skipped (0)</label>\n<label><input');
    expect(html.match(/<\/article>\n<article/g)).toHaveLength(3);
    expect(renderHtml(reportOf([]))).toContain(
      'replays its cases), started 2026-12-01T10:00:00.000Z, 4.3 s</p>',
    );
  });

  it('lists every check, failures first, each with its section linked and its message', () => {
    const html = renderHtml(
      reportOf([
        result({ id: 'listPets.ok', outcome: 'pass' }),
        result({ id: 'auth.skipped', group: 'auth', outcome: 'skip', message: 'rate limited' }),
        result({ id: 'getPet.adv', group: 'getPet', outcome: 'advisory', section: 'RFC 8594' }),
        result({
          id: 'getPet.bad',
          group: 'getPet',
          outcome: 'fail',
          section: '§4.3, §7',
          title: 'finds pets',
          message: 'answered 500',
        }),
      ]),
    );
    const ids = [
      ...html.matchAll(
        /<article class="(\w+)" data-outcome="\1" data-group="(\w+)" id="([^"]+)">/g,
      ),
    ].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(ids).toEqual([
      'fail getPet getPet.bad',
      'advisory getPet getPet.adv',
      'skip auth auth.skipped',
      'pass listPets listPets.ok',
    ]);
    expect(html).toContain(
      `<h2><span class="outcome">failed</span><code>getPet.bad</code>: finds pets</h2>\n<div>must, §4.3, §7 <a href="${SPECIFICATION_URL}#43-get-an-animal-get-petspetid-getpet-deprecated">[1]</a> <a href="${SPECIFICATION_URL}#7-errors">[2]</a></div>\n<pre>answered 500</pre>\n</article>`,
    );
    expect(html).toContain('<div>must, RFC 8594</div>\n<pre>message of getPet.adv</pre>');
    expect(html).toContain('<div>must, §4.1 <a');
    // A pass has no message to show.
    expect(html).toMatch(
      /<code>listPets\.ok<\/code>: title of listPets\.ok<\/h2>\n<div>[^\n]*<\/div>\n<\/article>/,
    );
    expect(html).toContain(
      '<select id="group"><option value="">every group</option><option value="auth">auth</option><option value="listPets">listPets</option><option value="getPet">getPet</option></select>',
    );
  });

  it('gives hints, the checks that could not run and what gives a full verdict', () => {
    const html = renderHtml(
      reportOf([], {
        hints: ['one', 'two'],
        verdict: 'incomplete',
        notRun: [
          { id: 'n1', reason: 'r1' },
          { id: 'n2', reason: 'r2' },
        ],
        fullVerdict: 'an empty store',
      }),
    );
    expect(html).toContain('<p class="hint">Hint: one</p>\n<p class="hint">Hint: two</p>');
    expect(html).toContain(
      '<section class="hint"><p>INCOMPLETE: 2 must checks could not run:</p><ul><li><code>n1</code>: r1</li><li><code>n2</code>: r2</li></ul><p>For a full verdict: an empty store</p></section>',
    );
    expect(html).toContain('<span class="verdict-incomplete">INCOMPLETE</span>');
    const without = renderHtml(reportOf([], { notRun: [{ id: 'n1', reason: 'r1' }] }));
    expect(without).toContain('<li><code>n1</code>: r1</li></ul></section>');
    expect(renderHtml(reportOf([]))).toContain('</table>\n\n\n<form>');
  });

  it('says which pets the run left, in the words of the other reports', () => {
    const created = (count: number) =>
      /\n<p>(Created[^\n]*)<\/p>\n<script>/.exec(
        renderHtml(reportOf([], { created: { count, namePrefix: 'cf-x', ids: [] } })),
      )?.[1];
    expect(created(0)).toBe('Created no pets.');
    expect(created(1)).toBe(
      'Created 1 pet named <code>cf-x&lt;n&gt;</code>; they stay on the server (the spec has no delete).',
    );
    expect(created(2)).toMatch(/^Created 2 pets named/);
  });

  it('names the traffic judged in place of the run, and no pets', () => {
    const html = renderHtml(
      reportOf([], { traffic: traffic({ source: '<a>.har', exercised: ['x'] }) }),
    );
    expect(html).toContain(
      '<p class="meta">http://127.0.0.1:8080/v1: kit 1.2.3</p>\n<ul class="traffic"><li>traffic of &lt;a&gt;.har: 3 exchanges, 3 of the spec&#39;s operations judged</li><li>Exercised (1): x</li><li>Not exercised (0): </li></ul>',
    );
    expect(html).not.toContain('seed');
    expect(html).not.toContain('Created');
    expect(html).toContain('</main>\n\n<script>');
  });
});
