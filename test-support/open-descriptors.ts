import { readdirSync, readlinkSync } from 'node:fs';

/** How many of this process's file descriptors are open on `path` (Linux: read from `/proc/self/fd`). */
export function descriptorsOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed while we looked (the one readdir itself used)
    }
  }).length;
}
