import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import type { PetStore } from '../store/pet-store.js';

/** What the app needs from tracing; `createApp` adds none of it when tracing is off. */
export interface RequestTracing {
  /** The outermost middleware: a server span per request, named by its route template. */
  readonly middleware: Middleware<AppState>;
  /** `store` with a child span per call. */
  traceStore(store: PetStore): PetStore;
  /** Sends the spans still queued, then stops. */
  shutdown(): Promise<void>;
}
