import type { TestProjectConfiguration } from 'vitest/config';

const project = (name: string, root: string): TestProjectConfiguration => ({
  test: {
    name,
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
  // Starts a Restate server and worker processes: generous timeouts, files one at a time, and after
  // the other projects, so its processes do not slow their timed tests (nor theirs its own).
  {
    test: {
      name: 'restate',
      root: 'packages/restate',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
      fileParallelism: false,
      sequence: { groupOrder: 1 },
    },
  },
  { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'] } },
] satisfies TestProjectConfiguration[];
