/**
 * The platform's paths: the probes and the scrape. A balancer, an orchestrator and Prometheus
 * call them every few seconds per process; by default a successful answer to them is neither
 * access-logged nor traced (`OBSERVE_PROBES`), so logs and traces hold the API's own traffic.
 */
export const PLATFORM_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);
