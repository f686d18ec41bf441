import { createHash } from 'node:crypto';
import { type CheckResult, type ConformanceReport, GROUPS, type Outcome } from '../types.js';
import { createdSentence } from './created.js';
import { sectionLinks } from './spec-links.js';
import { trafficLines } from './traffic.js';
import { notRunSummary, VERDICT_LABEL } from './verdict.js';

/** Escapes text for an HTML element or a quoted attribute. */
export function htmlText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const OUTCOMES: readonly Outcome[] = ['fail', 'advisory', 'skip', 'pass'];
const LABEL: Record<Outcome, string> = {
  fail: 'failed',
  advisory: 'advisory',
  skip: 'skipped',
  pass: 'passed',
};

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
.verdict-pass { color: #1a7f37; } .verdict-fail { color: #cf222e; } .verdict-incomplete { color: #9a6700; }
.meta { color: #57606a; margin-top: 0; }
fieldset { display: inline-block; border: 1px solid #d0d7de; margin: 0 1rem 1rem 0; }
table.counts td, table.counts th { padding: .2rem .8rem; text-align: right; }
article { border: 1px solid #d0d7de; border-left-width: 6px; border-radius: 4px; margin: .6rem 0; padding: .4rem .8rem; }
article.fail { border-left-color: #cf222e; } article.advisory { border-left-color: #bf8700; }
article.skip { border-left-color: #8c959f; } article.pass { border-left-color: #1a7f37; }
article h2 { font-size: 1rem; margin: .2rem 0; }
.outcome { font-weight: 600; text-transform: uppercase; font-size: .8rem; margin-right: .5rem; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.hint { background: #fff8c5; padding: .5rem .8rem; border-radius: 4px; }
[hidden] { display: none !important; }
`;

// Shows the results whose outcome is ticked and whose group is chosen; reads only the page.
const SCRIPT = `
const outcomes = [...document.querySelectorAll('input[name=outcome]')];
const group = document.getElementById('group');
const shown = document.getElementById('shown');
function apply() {
  const on = new Set(outcomes.filter((box) => box.checked).map((box) => box.value));
  let count = 0;
  for (const item of document.querySelectorAll('article[data-outcome]')) {
    const visible = on.has(item.dataset.outcome) && (group.value === '' || group.value === item.dataset.group);
    item.hidden = !visible;
    if (visible) count += 1;
  }
  shown.textContent = String(count);
}
for (const box of outcomes) box.addEventListener('change', apply);
group.addEventListener('change', apply);
apply();
`;

/** The page's Content-Security-Policy: nothing loads, and only the report's own script runs. */
function contentSecurityPolicy(): string {
  const hash = createHash('sha256').update(SCRIPT).digest('base64');
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

function article(result: CheckResult): string {
  const links = sectionLinks(result.section);
  const section =
    links.length === 0
      ? htmlText(result.section)
      : `${htmlText(result.section)} ${links.map((l, i) => `<a href="${htmlText(l)}">[${i + 1}]</a>`).join(' ')}`;
  const body = result.outcome === 'pass' ? '' : `\n<pre>${htmlText(result.message)}</pre>`;
  return `<article class="${result.outcome}" data-outcome="${result.outcome}" data-group="${result.group}" id="${htmlText(result.id)}">
<h2><span class="outcome">${LABEL[result.outcome]}</span><code>${htmlText(result.id)}</code>: ${htmlText(result.title)}</h2>
<div>${result.level}, ${section}</div>${body}
</article>`;
}

/**
 * Renders a report as one self-contained HTML page (no external asset; it works offline): the
 * verdict and counts (for judged traffic, what it held and exercised), a filter by outcome and by
 * group, and every check, failures first, each with its message and the curl line that replays
 * its request. Everything a server sent is escaped, and the page's Content-Security-Policy lets
 * only its own filter script run.
 */
export function renderHtml(report: ConformanceReport): string {
  const { summary } = report;
  const order = (r: CheckResult) => OUTCOMES.indexOf(r.outcome);
  const results = [...report.results].sort((a, b) => order(a) - order(b));
  const verdict = VERDICT_LABEL[report.verdict];
  const mode = [report.readOnly ? 'read-only' : '', report.strict ? 'strict' : ''].filter(
    (m) => m !== '',
  );
  const count: Record<Outcome, number> = {
    pass: summary.passed,
    fail: summary.failed,
    advisory: summary.advisories,
    skip: summary.skipped,
  };
  const groups = GROUPS.filter((g) => report.results.some((r) => r.group === g));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Animal Store conformance: ${verdict}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Animal Store conformance: <span class="verdict-${verdict.toLowerCase()}">${verdict}</span></h1>
${
  report.traffic === undefined
    ? `<p class="meta">${htmlText(report.baseUrl)}: kit ${htmlText(report.kit.version)}, run ${htmlText(report.runId)}, seed ${report.seed} (<code>--seed ${report.seed}</code> replays its cases), started ${htmlText(report.startedAt)}, ${(report.durationMs / 1000).toFixed(1)} s${mode.length === 0 ? '' : `, ${mode.join(', ')}`}</p>`
    : `<p class="meta">${htmlText(report.baseUrl)}: kit ${htmlText(report.kit.version)}</p>
<ul class="traffic">${trafficLines(report.traffic)
        .map((line) => `<li>${htmlText(line)}</li>`)
        .join('')}</ul>`
}
<table class="counts"><tr>${OUTCOMES.map((o) => `<th>${LABEL[o]}</th>`).join('')}</tr><tr>${OUTCOMES.map((o) => `<td id="count-${o}">${count[o]}</td>`).join('')}</tr></table>
${report.hints.map((h) => `<p class="hint">Hint: ${htmlText(h)}</p>`).join('\n')}
${report.notRun.length === 0 ? '' : `<section class="hint"><p>INCOMPLETE: ${notRunSummary(report)}:</p><ul>${report.notRun.map((n) => `<li><code>${htmlText(n.id)}</code>: ${htmlText(n.reason)}</li>`).join('')}</ul>${report.fullVerdict === undefined ? '' : `<p>For a full verdict: ${htmlText(report.fullVerdict)}</p>`}</section>`}
<form>
<fieldset><legend>Outcome</legend>
${OUTCOMES.map((o) => `<label><input type="checkbox" name="outcome" value="${o}" checked> ${LABEL[o]} (${count[o]})</label>`).join('\n')}
</fieldset>
<fieldset><legend>Group</legend>
<select id="group"><option value="">every group</option>${groups.map((g) => `<option value="${g}">${g}</option>`).join('')}</select>
</fieldset>
<p><span id="shown">${results.length}</span> of ${results.length} checks shown</p>
</form>
<main>
${results.map(article).join('\n')}
</main>
${report.traffic !== undefined ? '' : `<p>${createdSentence(report.created, (pattern) => `<code>${htmlText(pattern)}</code>`)}</p>`}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
