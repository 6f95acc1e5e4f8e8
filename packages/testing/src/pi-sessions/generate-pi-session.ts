import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { type SeededRandom, seededRandom } from './seeded-random.js';

/**
 * Realistic pi coding-agent session files, made from a seed: what a recorded session holds, without
 * the recording. The lines follow pi's own file formats (pi-coding-agent 0.73.1 reads them):
 * format 1 (no ids, one chain, compactions point at a line index) and format 3 (an entry tree with
 * ids, branches and branch summaries).
 *
 * A session is a run of turns: a user message (sometimes with CJK text or an image), then tool
 * rounds (thinking with a provider signature, text, one or several parallel tool calls, their
 * results) and a final answer. Along the way there are model and thinking-level changes, `!command`
 * shell executions, an aborted reply and a failed one, compactions that summarize the older part,
 * and, in format 3, branches that start again from an earlier user message with a branch summary.
 */
export interface PiSessionOptions {
  seed: number;
  /** pi's file format: 1 (the oldest, still read by pi) or 3 (the current one). */
  format: 1 | 3;
  /** Turns on the line that ends at the leaf, before any branch. Default 30. */
  turns?: number;
  /**
   * End with a long tool loop (many rounds with large results), so a compaction with default
   * settings cuts inside that turn. Default true.
   */
  longLastTurn?: boolean;
  /**
   * CJK text (in user messages, answers, tool output) and images in user messages, where Tiller's
   * token estimate deliberately counts more than pi's. Default true; false for sessions on which
   * both estimates, and so both compaction cuts, must agree exactly.
   */
  rich?: boolean;
  /** Compaction entries (two, at about a third and two thirds of the turns). Default true. */
  compactions?: boolean;
  /** `!command` shell executions the user ran between turns. Default true. */
  shellCommands?: boolean;
}

/** What went into a generated session, counted while writing it. */
export interface PiSessionCounts {
  /** Lines after the header. */
  entries: number;
  userMessages: number;
  assistantMessages: number;
  toolResults: number;
  bashExecutions: number;
  thinkingLevelChanges: number;
  modelChanges: number;
  compactions: number;
  branchSummaries: number;
  /** Assistant messages with more than one tool call. */
  parallelCalls: number;
  abortedReplies: number;
  failedReplies: number;
  images: number;
  cjkMessages: number;
  thinkingSignatures: number;
}

export interface GeneratedPiSession {
  /** The session file: one JSON object a line, the header first, a newline at the end. */
  text: string;
  format: 1 | 3;
  /** Format 3: the id of the last line, where pi opens the session. */
  leafId: string | undefined;
  counts: PiSessionCounts;
}

interface Model {
  api: string;
  provider: string;
  model: string;
}

const MODELS: readonly Model[] = [
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  { api: 'openai-responses', provider: 'openai', model: 'gpt-5.1-codex' },
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5' },
];
const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;
const FILES = ['src/parser.ts', 'src/lexer.ts', 'src/session.ts', 'src/cli/main.ts', 'test/parser.test.ts', 'README.md', 'package.json', 'docs/design.md'];
const WORDS = (
  'the parser keeps its state on a stack and every token moves it one step further while the lexer ' +
  'reads ahead two characters so a comment never splits a string literal we should check the tests ' +
  'first then change the function that builds the tree and run the whole suite again before the commit'
).split(' ');
const CJK = ['数据库迁移需要在周五之前完成。', 'ファイルを読んで、テストを直してください。', '설정 파일을 확인해 주세요.', '请把这个函数拆成两个。'];
const CODE_LINES = [
  'export function parse(source: string): Node[] {',
  '  const stack: Frame[] = [];',
  '  for (const token of tokenize(source)) {',
  '    if (token.kind === "comment") continue;',
  '    stack.at(-1)?.children.push(toNode(token));',
  '  }',
  '  return stack.length === 0 ? [] : stack[0].children;',
  '}',
  'import { readFile } from "node:fs/promises";',
];
const CJK_CODE_LINE = '// 日本語のコメント: 行末の空白は無視する';
/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const START = Date.UTC(2026, 0, 12, 9, 0, 0);

/** Writes one session. The same options always give the same text. */
const PiSessionOptions = z.strictObject({
  seed: z.number().int().nonnegative(),
  format: z.union([z.literal(1), z.literal(3)]),
  turns: z.number().int().nonnegative().max(100_000, 'at most 100 000 turns (a session of hundreds of megabytes)').optional(),
  longLastTurn: z.boolean().optional(),
  rich: z.boolean().optional(),
  compactions: z.boolean().optional(),
  shellCommands: z.boolean().optional(),
});

export function generatePiSession(options: PiSessionOptions): GeneratedPiSession {
  checkOptions('generatePiSession', PiSessionOptions, options);
  return new SessionWriter(options).write();
}

class SessionWriter {
  private readonly random: SeededRandom;
  private readonly lines: Record<string, unknown>[] = [];
  private readonly counts: PiSessionCounts = {
    entries: 0, userMessages: 0, assistantMessages: 0, toolResults: 0, bashExecutions: 0, thinkingLevelChanges: 0,
    modelChanges: 0, compactions: 0, branchSummaries: 0, parallelCalls: 0, abortedReplies: 0, failedReplies: 0,
    images: 0, cjkMessages: 0, thinkingSignatures: 0,
  };
  private clock = START;
  private model: Model;
  private thinking = true;
  /** Ids (format 3) or line indexes (format 1) of the entries on the path to the leaf. */
  private path: { ref: string | number; cutPoint: boolean; user: boolean }[] = [];
  /** Characters the model would be sent for the current path: the base of realistic usage. */
  private contextChars = 0;
  private readonly touched = { read: new Set<string>(), modified: new Set<string>() };
  private readonly ids = new Set<string>();
  private readonly rich: boolean;
  private readonly codeLines: readonly string[];

  constructor(private readonly options: PiSessionOptions) {
    this.random = seededRandom(options.seed);
    this.model = MODELS[0]!;
    this.rich = options.rich !== false;
    this.codeLines = this.rich ? [...CODE_LINES, CJK_CODE_LINE] : CODE_LINES;
  }

  write(): GeneratedPiSession {
    const { format } = this.options;
    const turns = this.options.turns ?? 30;
    this.lines.push({
      type: 'session',
      ...(format === 3 ? { version: 3 } : {}),
      id: `generated-${this.options.seed}`,
      timestamp: this.iso(),
      cwd: '/home/dev/projects/parser',
      ...(format === 1 ? { provider: this.model.provider, modelId: this.model.model, thinkingLevel: 'off' } : {}),
    });
    const abortAt = this.random.int(1, Math.max(1, turns - 2));
    const failAt = this.random.int(1, Math.max(1, turns - 2));
    const compactAt = this.options.compactions === false ? new Set<number>() : new Set([Math.floor(turns * 0.35), Math.floor(turns * 0.7)]);
    const branchAt = format === 3 ? new Set([Math.floor(turns * 0.5), Math.floor(turns * 0.85)]) : new Set<number>();
    for (let t = 0; t < turns; t++) {
      if (t > 0 && this.random.chance(0.15)) this.thinkingLevelChange();
      if (t > 0 && this.random.chance(0.1)) this.modelChange();
      if (t > 0 && this.options.shellCommands !== false && this.random.chance(0.12)) this.bashExecution();
      const long = t === turns - 1 && this.options.longLastTurn !== false;
      this.turn({ aborted: t === abortAt, failed: t === failAt && t !== abortAt, long });
      if (compactAt.has(t) && t < turns - 1) this.compaction();
      if (branchAt.has(t) && t < turns - 1) this.branch();
    }
    const text = `${this.lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    const last = this.lines.at(-1)!;
    return { text, format, leafId: format === 3 ? (last.id as string) : undefined, counts: { ...this.counts, entries: this.lines.length - 1 } };
  }

  // --- turns

  private turn(how: { aborted: boolean; failed: boolean; long: boolean }): void {
    this.userMessage();
    const rounds = how.long ? this.random.int(8, 14) : this.random.chance(0.3) ? 0 : this.random.int(1, 4);
    for (let r = 0; r < rounds; r++) {
      if (how.aborted && r === rounds - 1) {
        this.assistant({ kind: 'aborted' });
        return;
      }
      this.toolRound(how.long);
    }
    if (how.aborted) this.assistant({ kind: 'aborted' });
    else if (how.failed) {
      this.assistant({ kind: 'failed' });
      // The user asks again after the error, and the retry answers.
      this.userMessage('try again');
      this.assistant({ kind: 'answer' });
    } else this.assistant({ kind: 'answer' });
  }

  private toolRound(long: boolean): void {
    const count = this.random.chance(0.35) ? this.random.int(2, 4) : 1;
    const calls = Array.from({ length: count }, () => this.toolCall());
    this.assistant({ kind: 'calls', calls });
    for (const call of calls) this.toolResult(call, long);
  }

  private toolCall(): ToolCall {
    const name = this.random.pick(['read', 'read', 'bash', 'edit', 'write', 'grep'] as const);
    const path = this.random.pick(FILES);
    const id = this.model.provider === 'anthropic' ? `toolu_${this.token(22)}` : `call_${this.token(20)}|fc_${this.token(24)}`;
    switch (name) {
      case 'read':
        return { id, name, arguments: { path, ...(this.random.chance(0.3) ? { offset: this.random.int(1, 200), limit: 120 } : {}) } };
      case 'bash':
        return { id, name, arguments: { command: this.random.pick(['npm test', 'ls -la src', `git diff ${path}`, 'rg "parse(" src']) } };
      case 'edit':
        return { id, name, arguments: { path, oldText: this.words(8), newText: this.words(10) } };
      case 'write':
        return { id, name, arguments: { path, content: this.code(this.random.int(5, 30)) } };
      case 'grep':
        return { id, name, arguments: { pattern: 'parse', path: 'src' } };
      default: {
        const unknown: never = name;
        throw new Error(`unknown tool ${String(unknown)}`);
      }
    }
  }

  private toolResult(call: ToolCall, long: boolean): void {
    const path = typeof call.arguments.path === 'string' ? call.arguments.path : undefined;
    if (path && (call.name === 'read' || call.name === 'grep')) this.touched.read.add(path);
    if (path && (call.name === 'edit' || call.name === 'write')) this.touched.modified.add(path);
    const isError = this.random.chance(0.06);
    let text: string;
    if (isError) text = `Error: ${path ?? 'command'} failed: ENOENT: no such file or directory`;
    else if (call.name === 'read') text = this.code(long ? this.random.int(120, 400) : this.random.int(10, 160));
    else if (call.name === 'bash') text = this.code(long ? this.random.int(60, 200) : this.random.int(2, 40));
    else if (call.name === 'grep') text = `${path}:12: ${this.words(6)}\n${path}:48: ${this.words(5)}`;
    else text = `Successfully replaced text in ${path}.`;
    const content: unknown[] = [{ type: 'text', text }];
    if (!isError && call.name === 'read' && this.random.chance(0.05)) {
      content.push({ type: 'image', data: PNG, mimeType: 'image/png' });
      this.counts.images += 1;
    }
    this.message(
      {
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content,
        ...(call.name === 'edit' && !isError ? { details: { diff: `-${this.words(3)}\n+${this.words(4)}` } } : {}),
        isError,
      },
      false,
      text.length,
    );
    this.counts.toolResults += 1;
  }

  private userMessage(fixed?: string): void {
    let text = fixed ?? this.words(this.random.int(6, 60));
    const cjk = this.rich && fixed === undefined && this.random.chance(0.15);
    if (cjk) {
      text = `${text} ${this.random.pick(CJK)}${this.random.pick(CJK)}`;
      this.counts.cjkMessages += 1;
    }
    const parts: unknown[] = [{ type: 'text', text }];
    if (this.rich && fixed === undefined && this.random.chance(0.08)) {
      parts.push({ type: 'image', data: PNG, mimeType: 'image/png' });
      this.counts.images += 1;
    }
    // Format 1 wrote content as a list of parts; later pi also writes a plain string.
    const content = this.options.format === 3 && parts.length === 1 && this.random.chance(0.5) ? text : parts;
    this.message({ role: 'user', content }, true, text.length, true);
    this.counts.userMessages += 1;
  }

  private assistant(reply: { kind: 'calls'; calls: ToolCall[] } | { kind: 'answer' } | { kind: 'aborted' } | { kind: 'failed' }): void {
    const content: unknown[] = [];
    let chars = 0;
    const withThinking = this.thinking && reply.kind !== 'failed' && this.random.chance(0.7);
    if (withThinking) {
      const thinking = this.words(this.random.int(10, 120));
      chars += thinking.length;
      const aborted = reply.kind === 'aborted';
      // Anthropic signs thinking with an opaque token; OpenAI's responses API keeps the reasoning item.
      const thinkingSignature = aborted ? '' : this.model.provider === 'anthropic' ? this.token(120) : JSON.stringify({ type: 'reasoning', id: `rs_${this.token(24)}`, summary: [] });
      if (!aborted) this.counts.thinkingSignatures += 1;
      content.push({ type: 'thinking', thinking, thinkingSignature });
    }
    let stopReason: string;
    let errorMessage: string | undefined;
    switch (reply.kind) {
      case 'calls': {
        if (this.random.chance(0.5)) {
          const text = this.words(this.random.int(4, 30));
          chars += text.length;
          content.push({ type: 'text', text });
        }
        for (const call of reply.calls) {
          chars += JSON.stringify(call.arguments).length;
          content.push({ type: 'toolCall', ...call });
        }
        if (reply.calls.length > 1) this.counts.parallelCalls += 1;
        stopReason = 'toolUse';
        break;
      }
      case 'answer': {
        const text = this.rich && this.random.chance(0.1) ? `${this.words(20)} ${this.random.pick(CJK)}` : this.words(this.random.int(10, 200));
        chars += text.length;
        content.push({ type: 'text', text, ...(this.model.provider === 'openai' && this.random.chance(0.5) ? { textSignature: `msg_${this.token(24)}` } : {}) });
        stopReason = 'stop';
        break;
      }
      case 'aborted':
        stopReason = 'aborted';
        errorMessage = 'Request was aborted.';
        this.counts.abortedReplies += 1;
        break;
      case 'failed':
        stopReason = 'error';
        errorMessage = '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
        this.counts.failedReplies += 1;
        break;
      default: {
        const unknown: never = reply;
        throw new Error(`unknown reply ${JSON.stringify(unknown)}`);
      }
    }
    const reported = reply.kind === 'calls' || reply.kind === 'answer';
    this.message(
      {
        role: 'assistant',
        content,
        api: this.model.api,
        provider: this.model.provider,
        model: this.model.model,
        usage: this.usage(reported ? this.contextChars : 0, reported ? chars : 0),
        stopReason,
        ...(errorMessage === undefined ? {} : { errorMessage }),
      },
      true,
      chars,
    );
    this.counts.assistantMessages += 1;
  }

  private usage(inputChars: number, outputChars: number) {
    const prompt = Math.ceil(inputChars / 3.6);
    const cacheRead = prompt > 2000 ? Math.floor(prompt * 0.8) : 0;
    const input = prompt - cacheRead;
    const output = Math.ceil(outputChars / 3.8);
    const cost = { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 + cacheRead * 3e-7 };
    // Format 1 files come from a pi that wrote no totalTokens.
    const total = this.options.format === 3 ? { totalTokens: input + output + cacheRead } : {};
    return { input, output, cacheRead, cacheWrite: 0, ...total, cost };
  }

  // --- entries that are not conversation

  private bashExecution(): void {
    const command = this.random.pick(['ls', 'git status', 'npm run build', 'cat .env', 'sleep 30']);
    const cancelled = command === 'sleep 30';
    const output = cancelled ? '' : this.code(this.random.int(1, 30));
    const truncated = !cancelled && this.random.chance(0.2);
    this.message(
      {
        role: 'bashExecution',
        command,
        output,
        exitCode: cancelled ? undefined : this.random.pick([0, 0, 1]),
        cancelled,
        truncated,
        ...(truncated ? { fullOutputPath: `/tmp/pi-bash-${this.token(8)}.log` } : {}),
        // Newer pi can keep a command out of the model's context (`!!command`).
        ...(this.options.format === 3 && command === 'cat .env' ? { excludeFromContext: true } : {}),
      },
      false,
      command.length + output.length,
    );
    this.counts.bashExecutions += 1;
  }

  private thinkingLevelChange(): void {
    const level = this.random.pick(THINKING_LEVELS);
    this.thinking = level !== 'off';
    this.entry({ type: 'thinking_level_change', thinkingLevel: level }, false);
    this.counts.thinkingLevelChanges += 1;
  }

  private modelChange(): void {
    this.model = this.random.pick(MODELS.filter((m) => m !== this.model));
    this.entry({ type: 'model_change', provider: this.model.provider, modelId: this.model.model }, false);
    this.counts.modelChanges += 1;
  }

  /** Summarizes the older part of the path, keeping the last few cut points, as pi would. */
  private compaction(): void {
    const cutPoints = this.path.filter((p) => p.cutPoint);
    const kept = cutPoints[Math.max(0, cutPoints.length - 1 - this.random.int(2, 8))];
    if (!kept) return;
    const summary = [
      '## Goal',
      this.words(20),
      '',
      '## Progress',
      `- [x] ${this.words(8)}`,
      `- [ ] ${this.words(6)}`,
      '',
      '## Key Decisions',
      `- ${this.words(12)}`,
    ].join('\n');
    const tokensBefore = Math.ceil(this.contextChars / 4);
    const details = { readFiles: [...this.touched.read].sort(), modifiedFiles: [...this.touched.modified].sort() };
    if (this.options.format === 1) this.entry({ type: 'compaction', summary, firstKeptEntryIndex: kept.ref, tokensBefore }, false);
    else this.entry({ type: 'compaction', summary, firstKeptEntryId: kept.ref, tokensBefore, details }, false);
    // What the model sees now: the summary and the kept tail.
    this.contextChars = summary.length + Math.floor(this.contextChars * 0.3);
    this.counts.compactions += 1;
  }

  /** Format 3: goes back to an earlier user message and starts again from there with a summary. */
  private branch(): void {
    const users = this.path.filter((p) => p.user);
    if (users.length < 2) return;
    const from = users[this.random.int(0, users.length - 2)]!;
    this.path = this.path.slice(0, this.path.indexOf(from) + 1);
    this.entry(
      {
        type: 'branch_summary',
        fromId: from.ref,
        summary: `The abandoned branch tried: ${this.words(16)}`,
        details: { readFiles: [...this.touched.read].sort().slice(0, 2), modifiedFiles: [] },
      },
      false,
      from.ref as string,
    );
    this.contextChars = Math.floor(this.contextChars * 0.6);
    this.counts.branchSummaries += 1;
  }

  // --- writing lines

  private message(message: Record<string, unknown>, cutPoint: boolean, chars: number, user = false): void {
    this.contextChars += chars;
    this.entry({ type: 'message', message: { ...message, timestamp: this.clock } }, cutPoint, undefined, user);
  }

  private entry(fields: Record<string, unknown>, cutPoint: boolean, parentOverride?: string, user = false): void {
    this.clock += this.random.int(200, 40_000);
    const timestamp = this.iso();
    if (this.options.format === 1) {
      this.lines.push({ type: fields.type, timestamp, ...fields });
      this.path.push({ ref: this.lines.length - 1, cutPoint, user });
      return;
    }
    const id = this.freshId();
    const parentId = parentOverride ?? (this.path.at(-1)?.ref as string | undefined) ?? null;
    this.lines.push({ type: fields.type, id, parentId, timestamp, ...fields });
    this.path.push({ ref: id, cutPoint, user });
  }

  // --- text

  private iso(): string {
    return new Date(this.clock).toISOString();
  }

  private words(count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(this.random.pick(WORDS));
    const text = out.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1) + '.';
  }

  private code(lines: number): string {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(`${String(i + 1).padStart(4)}\t${this.random.pick(this.codeLines)}`);
    return out.join('\n');
  }

  /** pi's ids: eight hex digits, unique in the file. */
  private freshId(): string {
    for (;;) {
      const id = Array.from({ length: 8 }, () => '0123456789abcdef'[this.random.int(0, 15)]).join('');
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  private token(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.random.int(0, alphabet.length - 1)];
    return out;
  }
}

interface ToolCall {
  id: string;
  name: 'read' | 'bash' | 'edit' | 'write' | 'grep';
  arguments: Record<string, unknown>;
}
