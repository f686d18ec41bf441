#!/usr/bin/env node
// Builds the package in the current directory and every workspace package it depends on
// (turbo, cached), so that its tests see the current source of what they spawn or read from
// dist/. Run by turbo (TURBO_HASH set), whose test task already depends on the build, it does
// nothing: a second build there would rewrite dist/ under the other packages' running tests.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

if (!process.env.TURBO_HASH) {
  const { name } = JSON.parse(readFileSync('package.json', 'utf8'));
  execFileSync('turbo', ['run', 'build', `--filter=${name}...`, '--output-logs=errors-only'], {
    stdio: 'inherit',
  });
}
