import type { Tool } from '@tiller/shell';
import type { World } from './world.js';

/** Tools the world instruments, across runs: a tool already watched is never wrapped again. */
const watchedSet = new WeakSet<Tool>();

/** The user's tools, each wrapped once by the world so that it sees every run of them. */
export function toolWatcher(world: World): (tool: Tool) => Tool {
  const copies = new Map<Tool, Tool>();
  return (tool) => {
    if (watchedSet.has(tool)) return tool;
    let copy = copies.get(tool);
    if (!copy) {
      copy = world.instrument(tool);
      watchedSet.add(copy);
      copies.set(tool, copy);
    }
    return copy;
  };
}
