import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * A node:http agent that keeps its connections alive (its requests say `keep-alive`): for TLS
 * when `secure`. One made for a single exchange and destroyed after it gives that exchange a
 * connection of its own without asking the server to close it.
 */
export function keptAliveAgent(secure: boolean): HttpAgent {
  return secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
}
