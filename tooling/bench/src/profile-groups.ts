/**
 * Groups the self time of a V8 CPU profile (`.cpuprofile`, as `BENCH_CPU_PROF` writes them) by
 * what the code does for a request: Node's HTTP layer, the framework, logging, metrics,
 * validation, the store, the key check, tracing, async bookkeeping. Idle time is left out;
 * module loading is its own group, so a profile of a whole child (start included) still reads.
 * Fastify's generated validators and serialisers (native `anonymousN`, `validateN`) count as
 * validation.
 */

/** The part of a `.cpuprofile` read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

export const GROUPS = [
  'socket writes and reads',
  "Node's HTTP layer and streams",
  'framework (Koa, @koa/router / Fastify)',
  'logging',
  'metrics',
  'validation, JSON parsing and serialising',
  'the store and page texts',
  'the key check',
  'request checks, ids, errors, headers',
  'tracing',
  'promises, ticks and async context',
  'garbage collection',
  'module loading',
  'native, unattributed ((program))',
  'other',
] as const;
export type Group = (typeof GROUPS)[number];

/** Where a URL or native function belongs; the first rule that matches wins. */
const RULES: readonly [RegExp, Group][] = [
  [
    /^\(native\) (writeUtf8String|writeBuffer|writev|writeLatin1String|readStart|onStreamRead)$/,
    'socket writes and reads',
  ],
  [/^\(native\) \(garbage collector\)$/, 'garbage collection'],
  [/^\(native\) \(program\)$/, 'native, unattributed ((program))'],
  [/^\(native\) (runMicrotasks|processTicksAndRejections)$/, 'promises, ticks and async context'],
  [
    /node:internal\/(modules|bootstrap)|^\(native\) (compileFunction|internalModuleStat|readFileUtf8)$/,
    'module loading',
  ],
  [/@opentelemetry|\/tracing\//, 'tracing'],
  [
    /\/(pino|sonic-boom|fast-redact|pino-std-serializers|quick-format-unescaped|atomic-sleep|thread-stream)@|log-destination|access-log|logger\.js|^\(native\) writeString$|node:fs$/,
    'logging',
  ],
  [/\/(prom-client|tdigest|bintrees)@|\/metrics\//, 'metrics'],
  [
    /\/(typebox|@sinclair\+typebox|ajv|ajv-formats|fast-uri|secure-json-parse|fast-json-stringify|fast-querystring)@|validate\.js|query\.js|json-text\.js|json-body\.js|json-duplicates\.js|raw-body|content-type|type-is|^\(native\) (parse|decodeUTF8|anonymous\d+|validate\d+)$/,
    'validation, JSON parsing and serialising',
  ],
  [/\/store\/|^\(native\) (stringify|join)$/, 'the store and page texts'],
  [
    /\/keys\/|auth\.js|node:internal\/crypto\/hash|^\(native\) (oneShotDigest|Hash|digest|update)$/,
    'the key check',
  ],
  [
    /\/(koa|koa-compose|@koa\+router|on-finished|ee-first|delegates|depd|statuses|http-errors|encodeurl|escape-html|vary|only|cookies|keygrip|accepts|negotiator|fresh|mime-types|mime-db|path-to-regexp|koa-convert|http-assert|destroy|debug|ms)@|\/(fastify|find-my-way|avvio|light-my-request|@fastify\+[^/]+|fastq|rfdc|toad-cache|process-warning|abstract-logging|ret|safe-regex2)@/,
    'framework (Koa, @koa/router / Fastify)',
  ],
  [
    /request-checks|request-id|errors\.js|error-answers|router-answers|json-response|next-link|idempotency-key|server\.js|cors\.js|rate-limit|routes\/|app\.js|node:internal\/crypto\/random/,
    'request checks, ids, errors, headers',
  ],
  [
    /node:internal\/(process\/task_queues|async_hooks|async_context_frame|timers)|node:(async_hooks|timers)$/,
    'promises, ticks and async context',
  ],
  [
    /node:(_http_|net$|events$|internal\/(streams|stream_base_commons|http|url|errors|validators|buffer|util))|node:(buffer|url|stream)$/,
    "Node's HTTP layer and streams",
  ],
];

/** The group of one call frame. */
export function groupOf(callFrame: { functionName: string; url: string }): Group {
  const key = callFrame.url === '' ? `(native) ${callFrame.functionName}` : callFrame.url;
  for (const [rule, group] of RULES) if (rule.test(key)) return group;
  return 'other';
}

/** Each group's share of the profile's busy (non-idle) self time, in `GROUPS` order. */
export function groupSelfTime(profile: CpuProfile): Map<Group, number> {
  const groupOfNode = new Map<number, Group | 'idle'>();
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    const idle = url === '' && functionName === '(idle)';
    groupOfNode.set(node.id, idle ? 'idle' : groupOf(node.callFrame));
  }
  const time = new Map<Group, number>(GROUPS.map((group) => [group, 0]));
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const group = groupOfNode.get(id);
    if (group === undefined || group === 'idle') return;
    const delta = profile.timeDeltas[i] ?? 0;
    time.set(group, (time.get(group) ?? 0) + delta);
    busy += delta;
  });
  for (const [group, t] of time) time.set(group, busy === 0 ? 0 : t / busy);
  return time;
}

/** A Markdown table: one row per group, one column of shares per named profile. */
export function groupTable(profiles: readonly { name: string; profile: CpuProfile }[]): string {
  const shares = profiles.map(({ profile }) => groupSelfTime(profile));
  const lines = [
    `| self time (share of busy CPU) | ${profiles.map(({ name }) => name).join(' | ')} |`,
    `| --- |${profiles.map(() => ' --- |').join('')}`,
  ];
  for (const group of GROUPS) {
    const cells = shares.map((share) => `${(100 * (share.get(group) ?? 0)).toFixed(1)}%`);
    lines.push(`| ${group} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
