#!/usr/bin/env node
// The CLI is TypeScript run through tsx (no build step): `npx tds-conformance` works straight from a clone.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli.ts');
process.exitCode = await main(process.argv.slice(2));
