#!/usr/bin/env node
// The `tiller` command: runs the CLI built into dist/ (`pnpm build` in the repository).
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('tiller: dist/main.js is missing; run `pnpm build` in the Tiller repository first');
  process.exit(1);
}
await import(main.href);
