// A setup file (vitest.projects.ts): vitest runs it before every test file, while the helpers'
// modules load once per worker (the files share one module graph). So what a file started
// through the helpers stops after that file's tests, not at the end of the worker.
import { afterAll } from 'vitest';
import { stopWhatTheFileStarted } from './file-cleanup.js';

afterAll(stopWhatTheFileStarted);
