import type { TestProject } from 'vitest/node';
import { startTestMongo } from './start.js';
import './vitest-context.js';

/** Vitest globalSetup: start one server for the whole run, provide its URI, stop it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mongo = await startTestMongo();
  project.provide('mongoUri', mongo.uri);
  project.provide('mongoKind', mongo.kind);
  return () => mongo.stop();
}
