import { LOST_RESULT_NOTE, type Message } from '@tiller/core';
import {
  buildSessionContext,
  convertToLlm,
  migrateSessionEntries,
  parseSessionEntries,
  type SessionEntry,
  type SessionManager,
} from '@mariozechner/pi-coding-agent';

type PiMessage = ReturnType<typeof buildSessionContext>['messages'][number];

/** The messages pi itself builds for a session file, at `leafId` or at the file's last entry. */
export function piContext(text: string, leafId?: string): PiMessage[] {
  const fileEntries = parseSessionEntries(text);
  migrateSessionEntries(fileEntries);
  const entries = fileEntries.filter((e): e is SessionEntry => e.type !== 'session');
  return buildSessionContext(entries, leafId).messages;
}

/** A session made with pi's own SessionManager, written out as pi writes its files. */
export function piFileText(manager: SessionManager): string {
  return [manager.getHeader(), ...manager.getEntries()].map((e) => JSON.stringify(e)).join('\n') + '\n';
}

type Part = unknown[];

function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') return [['text', content]];
  return (content as Record<string, unknown>[]).map((p) => {
    switch (p.type) {
      case 'text':
        return ['text', p.text];
      case 'image':
        return ['image', p.mimeType, p.data];
      case 'thinking':
        return ['thinking', p.thinking, p.thinkingSignature ?? p.signature];
      case 'toolCall':
        return ['toolCall', p.id, p.name, p.arguments ?? p.args];
      default:
        return [String(p.type)];
    }
  });
}

/**
 * Where Tiller's context differs from pi's: role (pi's own roles mapped to `user`), order, and
 * content as the model sees it. Summaries are worded by each side; Tiller's must carry pi's summary.
 * Empty when they agree.
 */
export function contextDifferences(withRepairs: readonly Message[], pi: readonly PiMessage[]): string[] {
  const problems: string[] = [];
  const seen = pi.filter((m) => m.role !== 'bashExecution' || !m.excludeFromContext);
  // Tiller answers a call that has no result (an aborted or failed message, a run that stopped
  // mid-tool) with an error result; pi's session context leaves it open (pi's provider layer adds
  // one when it sends the context). Those stand-ins must answer calls pi left unanswered.
  const answeredByPi = new Set(seen.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])));
  const standIns = withRepairs.filter((m) => m.role === 'toolResult' && m.isError && m.content.length === 1 && m.content[0]!.type === 'text' && m.content[0]!.text === LOST_RESULT_NOTE);
  for (const m of standIns) if (m.role === 'toolResult' && answeredByPi.has(m.toolCallId)) problems.push(`stand-in result for ${m.toolCallId}, which pi answers`);
  const tiller = withRepairs.filter((m) => !standIns.includes(m));
  if (tiller.length !== seen.length) problems.push(`length: tiller ${tiller.length}, pi ${seen.length}`);
  for (let i = 0; i < Math.min(tiller.length, seen.length); i++) {
    const t = tiller[i]!;
    const p = seen[i]!;
    const role = p.role === 'user' || p.role === 'assistant' || p.role === 'toolResult' ? p.role : 'user';
    if (t.role !== role) {
      problems.push(`${i}: role tiller ${t.role}, pi ${p.role}`);
      continue;
    }
    if (p.role === 'compactionSummary' || p.role === 'branchSummary') {
      const text = JSON.stringify(partsOf(t.content));
      if (!text.includes(JSON.stringify(p.summary).slice(1, -1))) problems.push(`${i}: summary missing from ${p.role}`);
      continue;
    }
    const llm = convertToLlm([p])[0]!;
    const expected = JSON.stringify(partsOf(llm.content));
    const actual = JSON.stringify(partsOf(t.content));
    if (expected !== actual) problems.push(`${i}: ${p.role} content differs: tiller ${actual.slice(0, 200)} pi ${expected.slice(0, 200)}`);
    if (t.role === 'toolResult' && llm.role === 'toolResult' && (t.toolCallId !== llm.toolCallId || t.isError !== llm.isError)) {
      problems.push(`${i}: tool result ${t.toolCallId} differs from pi's ${llm.toolCallId}`);
    }
  }
  return problems;
}
