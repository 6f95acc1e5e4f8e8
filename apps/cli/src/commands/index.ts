import type { Command, OptionSpecs } from '../cli/command.js';
import { compactCommand } from './compact.js';
import { demoCommand } from './demo.js';
import { diagramCommand } from './diagram.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
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
  // inspect: serves the inspector (apps/inspector) on 127.0.0.1, or writes it as one HTML file.
  // Registered here once the inspector lands; until then `tiller inspect` is an unknown command.
  exportCommand,
  importCommand,
  diagramCommand,
] as unknown as Command<OptionSpecs>[];
