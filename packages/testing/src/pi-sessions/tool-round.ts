import { code, token, words } from './generated-text.js';
import { appendMessage, type SessionState } from './session-state.js';
import { FILES, PNG } from './vocabulary.js';

export interface ToolCall {
  id: string;
  name: 'read' | 'bash' | 'edit' | 'write' | 'grep';
  arguments: Record<string, unknown>;
}

/** A call to one of pi's tools, with an id in the current provider's style. */
export function toolCall(state: SessionState): ToolCall {
  const { random } = state;
  const name = random.pick(['read', 'read', 'bash', 'edit', 'write', 'grep'] as const);
  const path = random.pick(FILES);
  const id = state.model.provider === 'anthropic' ? `toolu_${token(random, 22)}` : `call_${token(random, 20)}|fc_${token(random, 24)}`;
  switch (name) {
    case 'read':
      return { id, name, arguments: { path, ...(random.chance(0.3) ? { offset: random.int(1, 200), limit: 120 } : {}) } };
    case 'bash':
      return { id, name, arguments: { command: random.pick(['npm test', 'ls -la src', `git diff ${path}`, 'rg "parse(" src']) } };
    case 'edit':
      return { id, name, arguments: { path, oldText: words(random, 8), newText: words(random, 10) } };
    case 'write':
      return { id, name, arguments: { path, content: code(random, state.codeLines, random.int(5, 30)) } };
    case 'grep':
      return { id, name, arguments: { pattern: 'parse', path: 'src' } };
    default: {
      const unknown: never = name;
      throw new Error(`unknown tool ${String(unknown)}`);
    }
  }
}

/**
 * The result of `call`: file contents, command output, matches or an edit's confirmation, now and
 * then an error or (for a read) an image; long output in a long turn. Notes the files touched, for
 * a compaction's details.
 */
export function appendToolResult(state: SessionState, call: ToolCall, long: boolean): void {
  const { random } = state;
  const path = typeof call.arguments.path === 'string' ? call.arguments.path : undefined;
  if (path && (call.name === 'read' || call.name === 'grep')) state.touched.read.add(path);
  if (path && (call.name === 'edit' || call.name === 'write')) state.touched.modified.add(path);
  const isError = random.chance(0.06);
  let text: string;
  if (isError) text = `Error: ${path ?? 'command'} failed: ENOENT: no such file or directory`;
  else if (call.name === 'read') text = code(random, state.codeLines, long ? random.int(120, 400) : random.int(10, 160));
  else if (call.name === 'bash') text = code(random, state.codeLines, long ? random.int(60, 200) : random.int(2, 40));
  else if (call.name === 'grep') text = `${path}:12: ${words(random, 6)}\n${path}:48: ${words(random, 5)}`;
  else text = `Successfully replaced text in ${path}.`;
  const content: unknown[] = [{ type: 'text', text }];
  if (!isError && call.name === 'read' && random.chance(0.05)) {
    content.push({ type: 'image', data: PNG, mimeType: 'image/png' });
    state.counts.images += 1;
  }
  appendMessage(
    state,
    {
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content,
      ...(call.name === 'edit' && !isError ? { details: { diff: `-${words(random, 3)}\n+${words(random, 4)}` } } : {}),
      isError,
    },
    false,
    text.length,
  );
  state.counts.toolResults += 1;
}
