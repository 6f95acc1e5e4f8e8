import type { FileLists, Message } from '@tiller/core';
import { z } from 'zod';

/** Which tool calls read or change files, and which argument holds the path. */
export const FileTools = z.strictObject({
  read: z.array(z.string().min(1)),
  modify: z.array(z.string().min(1)),
  /** Argument names tried in order; the first one holding a non-empty string is the path. */
  pathArgs: z.array(z.string().min(1)).min(1),
});
export type FileTools = z.infer<typeof FileTools>;

/** pi's coding tools: `read` reads, `write` and `edit` modify, the path is in `path`. */
export const DEFAULT_FILE_TOOLS: FileTools = Object.freeze({
  read: ['read'],
  modify: ['write', 'edit'],
  pathArgs: ['path'],
});

/** The files a stretch of conversation touched, gathered as messages are seen. */
export interface FileTracker {
  add(message: Message): void;
  /** Adds the lists an earlier compaction carried. */
  carry(lists: FileLists | undefined): void;
  /** Files only read, and files modified (a file both read and modified counts as modified); sorted. */
  lists(): FileLists;
}

export function createFileTracker(tools: FileTools = DEFAULT_FILE_TOOLS): FileTracker {
  const readTools = new Set(tools.read);
  const modifyTools = new Set(tools.modify);
  const read = new Set<string>();
  const modified = new Set<string>();
  const pathOf = (args: Record<string, unknown>): string | undefined => {
    for (const name of tools.pathArgs) {
      const value = args[name];
      if (typeof value === 'string' && value.length > 0) return value;
    }
    return undefined;
  };
  return {
    add(message) {
      if (message.role !== 'assistant') return;
      for (const part of message.content) {
        if (part.type !== 'toolCall') continue;
        const isRead = readTools.has(part.name);
        const isModify = modifyTools.has(part.name);
        if (!isRead && !isModify) continue;
        const path = pathOf(part.args);
        if (path === undefined) continue;
        if (isModify) modified.add(path);
        else read.add(path);
      }
    },
    carry(lists) {
      if (!lists) return;
      for (const path of lists.readFiles) read.add(path);
      for (const path of lists.modifiedFiles) modified.add(path);
    },
    lists() {
      return {
        readFiles: [...read].filter((path) => !modified.has(path)).sort(),
        modifiedFiles: [...modified].sort(),
      };
    },
  };
}

/** The file lists as a section the summary ends with, so the next model knows what was touched. */
export function formatFileLists(lists: FileLists): string {
  const blocks: string[] = [];
  if (lists.readFiles.length > 0) blocks.push(`Read:\n${lists.readFiles.map((f) => `- ${f}`).join('\n')}`);
  if (lists.modifiedFiles.length > 0) blocks.push(`Modified:\n${lists.modifiedFiles.map((f) => `- ${f}`).join('\n')}`);
  return blocks.length === 0 ? '' : `\n\n## Files Touched\n${blocks.join('\n')}`;
}
