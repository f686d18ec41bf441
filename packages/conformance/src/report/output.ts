// What every command that ends in a report shares: its `--reporter` and `--expect-fail` options,
// and writing the report in each reporter with the exit status it gives.
import { writeFileSync } from 'node:fs';
import { applyExpectations, type Expectations, readExpectations } from '../expectations.js';
import { ConformanceError } from '../run.js';
import { type ConformanceReport, EXIT_STATUS } from '../types.js';
import { parseReporters, type ReporterChoice, renderers } from './choose.js';

/** Where the report goes and which failures are known: the two options' values, read. */
export interface ReportOutput {
  readonly reporters: readonly ReporterChoice[];
  readonly expectations?: Expectations;
}

/** The `--reporter` and `--expect-fail` values as `ReportOutput` (the file read now). */
export function reportOutput(values: {
  reporter?: readonly string[];
  'expect-fail'?: string;
}): ReportOutput {
  const reporters = parseReporters(values.reporter ?? []);
  const file = values['expect-fail'];
  return file === undefined ? { reporters } : { reporters, expectations: readExpectations(file) };
}

/**
 * Writes `report`, its known failures applied, in each reporter: to `stdout` or to its file,
 * every text through `redact`. Returns the exit status of the verdict.
 */
export function writeReports(
  report: ConformanceReport,
  { reporters, expectations }: ReportOutput,
  stdout: (text: string) => void,
  redact: (text: string) => string,
): number {
  const judged =
    expectations === undefined ? report : applyExpectations(report, expectations).report;
  for (const { name, file } of reporters) {
    const text = redact(renderers[name](judged));
    if (file === undefined) stdout(text);
    else writeReport(file, text);
  }
  return EXIT_STATUS[judged.verdict];
}

function writeReport(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new ConformanceError(`cannot write the report to ${file}: ${(error as Error).message}`);
  }
}
