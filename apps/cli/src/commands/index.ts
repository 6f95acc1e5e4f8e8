import type { Command, OptionSpecs } from '../cli/command.js';
import { compactCommand } from './compact.js';
import { demoCommand } from './demo.js';
import { diagramCommand } from './diagram.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { inspectCommand } from './inspect.js';
import { replayCommand } from './replay.js';
import { runCommand } from './run.js';
import { sessionsCommand } from './sessions.js';
import { showCommand } from './show.js';

/** Every command of `tiller`, in the order `tiller --help` lists them. */
export const commands: readonly Command<OptionSpecs>[] = [
  demoCommand,
  runCommand,
  replayCommand,
  compactCommand,
  sessionsCommand,
  showCommand,
  inspectCommand,
  exportCommand,
  importCommand,
  diagramCommand,
] as unknown as Command<OptionSpecs>[];
