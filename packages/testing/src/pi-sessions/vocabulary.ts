/** What generated sessions are made of: the models, files, words and code a coding session talks about. */

export interface Model {
  api: string;
  provider: string;
  model: string;
}

export const MODELS: readonly Model[] = [
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  { api: 'openai-responses', provider: 'openai', model: 'gpt-5.1-codex' },
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5' },
];
export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;
export const FILES = ['src/parser.ts', 'src/lexer.ts', 'src/session.ts', 'src/cli/main.ts', 'test/parser.test.ts', 'README.md', 'package.json', 'docs/design.md'];
export const WORDS = (
  'the parser keeps its state on a stack and every token moves it one step further while the lexer ' +
  'reads ahead two characters so a comment never splits a string literal we should check the tests ' +
  'first then change the function that builds the tree and run the whole suite again before the commit'
).split(' ');
export const CJK = ['数据库迁移需要在周五之前完成。', 'ファイルを読んで、テストを直してください。', '설정 파일을 확인해 주세요.', '请把这个函数拆成两个。'];
export const CODE_LINES = [
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
export const CJK_CODE_LINE = '// 日本語のコメント: 行末の空白は無視する';
/** A 1x1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
