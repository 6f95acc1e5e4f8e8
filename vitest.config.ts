import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/report.json' },
  },
});
