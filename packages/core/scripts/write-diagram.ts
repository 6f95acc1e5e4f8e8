// Writes the turn machine's Mermaid diagram into docs/core.md, between its diagram markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { replaceDiagram, turnMachineDiagram } from '../test/diagram-block.js';

const doc = fileURLToPath(new URL('../../../docs/core.md', import.meta.url));
const next = replaceDiagram(readFileSync(doc, 'utf8'), turnMachineDiagram());
writeFileSync(doc, next);
console.log(`wrote the turn machine diagram to ${doc}`);
