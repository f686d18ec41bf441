import { UsageError } from '../run.js';
import type { ConformanceReport } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderPretty } from './pretty.js';

/** Every reporter by its `--reporter` name. */
export const renderers = {
  pretty: renderPretty,
  json: renderJson,
  junit: renderJunit,
  markdown: renderMarkdown,
  html: renderHtml,
} as const satisfies Record<string, (report: ConformanceReport) => string>;

/** A reporter's `--reporter` name. */
export type ReporterName = keyof typeof renderers;
export const REPORTER_NAMES = Object.keys(renderers) as ReporterName[];

/** One report a run writes: to `file`, or to stdout when there is none. */
export interface ReporterChoice {
  readonly name: ReporterName;
  readonly file?: string;
}

/**
 * The reports `--reporter` values ask for (`NAME` or `NAME:FILE`, repeated or comma-separated).
 * Exactly one goes to stdout: the one named without a file, or pretty when every one has a file.
 */
export function parseReporters(values: readonly string[]): ReporterChoice[] {
  const choices = values
    .flatMap((value) => value.split(','))
    .map((spec): ReporterChoice => {
      const colon = spec.indexOf(':');
      const name = (colon === -1 ? spec : spec.slice(0, colon)).trim();
      const file = colon === -1 ? undefined : spec.slice(colon + 1);
      if (!(REPORTER_NAMES as string[]).includes(name)) {
        throw new UsageError(
          `--reporter must be one of ${REPORTER_NAMES.join(', ')}, not "${name}"`,
        );
      }
      if (file === '') throw new UsageError(`--reporter ${name}: needs a file after ":"`);
      return file === undefined
        ? { name: name as ReporterName }
        : { name: name as ReporterName, file };
    });
  const toStdout = choices.filter((c) => c.file === undefined);
  if (toStdout.length > 1) {
    throw new UsageError(
      `--reporter: only one report goes to stdout, not ${toStdout.map((c) => c.name).join(' and ')}; give the others a :FILE`,
    );
  }
  const files = choices.flatMap((c) => (c.file === undefined ? [] : [c.file]));
  const twice = files.find((file, i) => files.indexOf(file) !== i);
  if (twice !== undefined) throw new UsageError(`--reporter: two reports would go to ${twice}`);
  return toStdout.length === 0 ? [{ name: 'pretty' }, ...choices] : choices;
}
