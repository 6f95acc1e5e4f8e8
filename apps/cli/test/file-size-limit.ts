import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The pid of the node process that runs tiller: `rootPid` itself, or the first node process below it (under `script`, `bash`). */
export function nodeBelow(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the 4th field, after the command in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const comm = (() => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    if (comm === 'node' || comm === 'MainThread') return pid;
    queue.push(...(children.get(pid) ?? []));
  }
  throw new Error(`no node process below pid ${rootPid}`);
}

/**
 * From now on the process may write no file past `bytes` (`prlimit`): a disk that fills up
 * mid-run. Start it with SIGXFSZ ignored (the harnesses' `fileSizeKib`), so a write past the limit
 * fails with EFBIG instead of killing it.
 */
export function limitFileSize(pid: number, bytes: number): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:${bytes}`]);
}
