export type { CheckContext } from './context.js';
export {
  applyExpectations,
  type Expectations,
  parseExpectations,
  readExpectations,
} from './expectations.js';
export { RateLimitedError, RequestError } from './http/client.js';
export { type MatrixRow, SPEC_MATRIX } from './matrix.js';
export { renderCheckTable } from './report/check-table.js';
export { renderHtml } from './report/html.js';
export { renderJson } from './report/json.js';
export { renderJunit } from './report/junit.js';
export { renderMarkdown } from './report/markdown.js';
export { renderMatrixTable } from './report/matrix-table.js';
export { prettyProgress, renderPretty } from './report/pretty.js';
export {
  ConfigurationError,
  ConformanceError,
  type ConformanceOptions,
  ConnectionError,
  DEFAULT_TIMEOUT_MS,
  runConformance,
  selectChecks,
  UsageError,
} from './run.js';
export { CHECKS, FIXTURE_SET_CHECKS } from './sections/index.js';
export {
  buildSpecOpenApiDocument,
  specOpenApiDocument,
  specOpenApiDocument30,
} from './spec-openapi.js';
export type { RecordedExchange } from './traffic/exchange.js';
export { parseHar, readHar } from './traffic/har.js';
export { judgeTraffic, TrafficJudge, type TrafficJudgeOptions } from './traffic/judge.js';
export { type ProxyOptions, type RunningProxy, startProxy } from './traffic/proxy.js';
export type {
  Check,
  CheckResult,
  ConformanceReport,
  Group,
  Level,
  NotRun,
  Outcome,
  ProgressEvent,
  RequestRecord,
  RunVerdict,
  Summary,
  TrafficSummary,
  Verdict,
} from './types.js';
export { EXIT_STATUS, GROUPS } from './types.js';
export { KIT_NAME, KIT_VERSION } from './version.js';
