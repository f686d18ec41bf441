#!/usr/bin/env node
// animal-store-test-db: start a MongoDB-compatible server, print MONGODB_URI=<uri> on stdout and
// keep it up until SIGINT or SIGTERM, then stop it. Honours MONGODB_URI and ANIMAL_STORE_TEST_DB.
import { startTestMongo } from './start.js';

const usage = `usage: animal-store-test-db
Starts a MongoDB-compatible server (see tooling/test-db/README.md),
prints MONGODB_URI=<uri> on stdout, and stops it on SIGINT or SIGTERM.
Environment: MONGODB_URI (use that server), ANIMAL_STORE_TEST_DB (strategies, comma-separated).`;

if (process.argv.length > 2) {
  const help = ['-h', '--help'].includes(process.argv[2] ?? '');
  (help ? process.stdout : process.stderr).write(`${usage}\n`);
  process.exit(help ? 0 : 2);
}

try {
  const mongo = await startTestMongo();
  process.stdout.write(`MONGODB_URI=${mongo.uri}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stderr.write(`test-db: ${signal}, stopping the ${mongo.kind} server\n`);
  await mongo.stop();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
