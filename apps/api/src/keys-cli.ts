#!/usr/bin/env node
// `pnpm --filter @animal-store/api keys create <name> | list | revoke <name>`: see HELP.
import { runKeysCli } from './keys/keys-cli-main.js';

process.exitCode = await runKeysCli(process.argv.slice(2));
