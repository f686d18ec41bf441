#!/usr/bin/env node
// The command's entry point. It stays outside dist/ so that a workspace install can link it
// before the package is built; the command itself is dist/cli.js.
import { exitWith, main } from '../dist/cli.js';

exitWith(main(process.argv.slice(2)));
