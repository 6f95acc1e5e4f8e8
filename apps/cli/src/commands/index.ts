import type { Command, OptionSpecs } from '../cli/command.js';
import { demoCommand } from './demo.js';
import { diagramCommand } from './diagram.js';
import { replayCommand } from './replay.js';

/**
 * Every command of `tiller`, in the order `tiller --help` lists them.
 *
 * `inspect` (serve the inspector on 127.0.0.1, or write it as one HTML file) belongs here, after
 * `show`, once apps/inspector lands; it is deliberately not registered until it works.
 */
export const commands: readonly Command<OptionSpecs>[] = [demoCommand, replayCommand, diagramCommand] as unknown as Command<OptionSpecs>[];
