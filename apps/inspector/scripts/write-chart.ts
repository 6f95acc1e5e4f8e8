/** Regenerates page/turn-machine.svg from the turn machine (run after changing the machine). */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderTurnChart } from './turn-chart.js';

export const CHART_FILE = fileURLToPath(new URL('../page/turn-machine.svg', import.meta.url));

await writeFile(CHART_FILE, await renderTurnChart());
console.log(`wrote ${CHART_FILE}`);
