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
  project('inspector', 'apps/inspector'),
  { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'] } },
] satisfies TestProjectConfiguration[];
