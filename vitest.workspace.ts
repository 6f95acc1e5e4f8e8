import { defaultServerConditions } from 'vite';
import type { TestProjectConfiguration } from 'vitest/config';

/**
 * Inside the workspace, `@tiller/*` packages resolve to their sources (the `@tiller/source` export
 * condition), so tests never run a stale build. See docs/packages.md.
 */
export const sourceConditions = ['@tiller/source', ...defaultServerConditions];
const resolve = { conditions: sourceConditions };
const ssr = { resolve };
// Node processes a test starts (`node --import tsx child.ts`) resolve the same way.
// On two loaded cores a test doing real work (a child process, a file, a few hundred steps) can
// pass 5 s; property tests set their own, longer timeouts.
const testTimeout = 20_000;
const env = { NODE_OPTIONS: [process.env.NODE_OPTIONS, '--conditions=@tiller/source'].filter(Boolean).join(' ') };

const project = (name: string, root: string): TestProjectConfiguration => ({
  resolve,
  ssr,
  test: {
    name,
    env,
    testTimeout,
    root,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
  },
});

export default [
  project('core', 'packages/core'),
  project('session', 'packages/session'),
  project('compaction', 'packages/compaction'),
  project('testing', 'packages/testing'),
  project('shell', 'packages/shell'),
  project('cli', 'apps/cli'),
  project('inspector', 'apps/inspector'),
  { resolve, ssr, test: { name: 'bench', env, testTimeout, root: 'bench', include: ['src/**/*.test.ts'] } },
  // Packs every package and installs it outside the workspace: it tests the built files, not the sources.
  { test: { name: 'packaging', root: 'packaging', include: ['*.test.ts'], testTimeout } },
] satisfies TestProjectConfiguration[];
