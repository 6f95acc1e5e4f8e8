import { defineCommand } from '../cli/command.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { resolveEntryId } from '../sessions/entry-id.js';
import { closeSession, openSession } from '../sessions/open-session.js';
import { contextSummary, countBranchPoints, sessionTreeLines } from '../view/session-tree.js';

export const showCommand = defineCommand({
  name: 'show',
  summary: 'print a session as a tree: branches, compactions, labels, and which entries the model sees now',
  args: '<session>',
  positionals: { min: 1, max: 1 },
  description: [
    'Reads Tiller and pi session files. Each entry is one line, marked for where it stands at the',
    'leaf: ● the model sees it, ○ a compaction took it out of the context (the log keeps it),',
    '◌ a tool result cleared to a placeholder, · on the path but never sent (labels, names);',
    'unmarked lines are on other branches. The file is only read.',
  ].join('\n'),
  options: {
    leaf: { type: 'string', value: 'ENTRY', description: "show the context at this entry (an id or its first characters) instead of the session's leaf" },
  },
  async run({ positionals, options }, io) {
    const session = await openSession(positionals[0]!);
    try {
      sayReadWarnings(io, session.warnings);
      const { log } = session;
      const leaf = options.leaf === undefined ? log.leafId : resolveEntryId(log.entries().map((e) => e.id), options.leaf, { command: 'show', option: 'leaf', session: session.path });
      const { out } = io;
      const write = (text: string) => io.stdout.write(`${text}\n`);
      write(`${out.bold(session.path)}  ${out.dim(`${session.format} session ${session.id}, created ${session.createdAt}`)}`);
      if (log.sessionName) write(`name: ${log.sessionName}`);
      const roots = log.tree();
      write(out.dim(`${log.size} entries, ${roots.length} root${roots.length === 1 ? '' : 's'}, ${countBranchPoints(roots)} branch points`));
      write('');
      for (const line of sessionTreeLines(log, leaf, out)) write(line.text);
      write('');
      write(contextSummary(log, leaf));
      return 0;
    } finally {
      await closeSession(session);
    }
  },
});
