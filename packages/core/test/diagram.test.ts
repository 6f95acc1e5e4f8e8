import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { diagramIn, turnMachineDiagram } from './diagram-block.js';

it('docs/core.md shows the diagram of the machine as it is (run `pnpm diagram` after changing it)', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/core.md', import.meta.url)), 'utf8');
  expect(diagramIn(doc)).toBe(turnMachineDiagram());
});
