/**
 * Streaming throughput: text deltas per second through the shell to a subscriber, beside the AI
 * SDK's own `streamText` over the same mock stream (`streamingLanguageModel`: one text of
 * `deltas` deltas, no tools). Tiller's side is a `createAgent` agent over `fromLanguageModel` of
 * the mock, a listener counting its `text.delta` events, one prompt a run; the AI SDK's side reads
 * `streamText(...).textStream` to the end. Round-robin, in one process; prints the row as JSON.
 */
import { aiSdkDeltas, tillerDeltas } from './stream-deltas.js';
import type { Measurement } from './measurement.js';
import { measure } from './measure.js';
import { median } from './median.js';

const deltas = Number(process.argv[2]);
if (!Number.isInteger(deltas) || deltas < 1) throw new Error(`usage: measure-stream.ts <deltas per call>, got ${process.argv[2]}`);
const samples = await measure(
  {
    tiller: async () => {
      if ((await tillerDeltas(deltas)) !== deltas) throw new Error('the subscriber missed deltas');
    },
    aiSdk: async () => {
      if ((await aiSdkDeltas(deltas)) !== deltas) throw new Error('streamText missed deltas');
    },
  },
  { warmup: 5, runs: 21 },
);
const rate = (runs: number[]) => deltas / (median(runs) / 1000);
const row: Measurement = { operation: 'stream-deltas', size: deltas, unit: 'deltas/s', tiller: rate(samples.tiller), reference: { name: 'AI SDK streamText', value: rate(samples.aiSdk) } };
process.stdout.write(JSON.stringify(row));
