// A setup file (vitest.projects.ts): vitest runs it before every test file, while the helpers'
// modules load once per worker (the files share one module graph). So what a file started
// through the helpers stops after that file's tests, not at the end of the worker.
import { afterAll } from 'vitest';
import { closeTestApis } from './api.js';
import { stopBalancers } from './balancers.js';
import { closeOtlpReceivers } from './otlp-receiver.js';
import { stopApiProcesses } from './processes.js';

afterAll(async () => {
  await Promise.all([stopApiProcesses(), stopBalancers(), closeTestApis(), closeOtlpReceivers()]);
});
