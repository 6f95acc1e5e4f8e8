import { SessionManager } from '@mariozechner/pi-coding-agent';

/**
 * A pi session made by pi's own SessionManager, as pi writes it to a file: a task with tool
 * rounds long enough to compact, a label, and a second branch from the first answer.
 */
export function makePiSessionText(rounds = 6): { text: string; ids: Record<string, string> } {
  const sm = SessionManager.inMemory('/work/project');
  const ids: Record<string, string> = {};
  let time = 1_700_000_000_000;
  const usage = (input: number) => ({ input, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: input + 40, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
  ids.prompt = sm.appendMessage({ role: 'user', content: 'Find where the config is parsed and explain it.', timestamp: (time += 1000) });
  for (let i = 1; i <= rounds; i++) {
    const id = sm.appendMessage({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading part ${i}.` },
        { type: 'toolCall', id: `call_${i}`, name: 'read', arguments: { path: `src/config-${i}.ts` } },
      ],
      api: 'openai-completions',
      provider: 'openai',
      model: 'gpt-4o',
      usage: usage(200 * i),
      stopReason: 'toolUse',
      timestamp: (time += 1000),
    });
    if (i === 1) ids.firstAnswer = id;
    sm.appendMessage({
      role: 'toolResult',
      toolCallId: `call_${i}`,
      toolName: 'read',
      content: [{ type: 'text', text: `// src/config-${i}.ts\n${'export const setting = parse(process.env.SETTING);\n'.repeat(20)}` }],
      isError: false,
      timestamp: (time += 1000),
    });
  }
  ids.last = sm.appendMessage({
    role: 'assistant',
    content: [{ type: 'text', text: 'The config is parsed in six places; parse() reads each setting.' }],
    api: 'openai-completions',
    provider: 'openai',
    model: 'gpt-4o',
    usage: usage(3000),
    stopReason: 'stop',
    timestamp: (time += 1000),
  });
  sm.appendLabelChange(ids.prompt!, 'task');
  // A second line of work from the first answer; then back to the main line's end.
  sm.branch(ids.firstAnswer!);
  ids.branch = sm.appendMessage({ role: 'user', content: 'Actually, only look at config-1.', timestamp: (time += 1000) });
  sm.branch(ids.last!);
  ids.leaf = sm.appendMessage({ role: 'user', content: 'Thanks. Summarize it in one line.', timestamp: (time += 1000) });
  const text = [sm.getHeader(), ...sm.getEntries()].map((e) => JSON.stringify(e)).join('\n') + '\n';
  return { text, ids };
}
