import type { Message } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { styleFor } from '../cli/style.js';
import { contextSummary, sessionTreeLines } from './session-tree.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function messageHtml(message: Message): string {
  const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Array<Record<string, unknown>>);
  const body = parts
    .map((part) => {
      switch (part.type) {
        case 'text':
          return `<pre>${escape(String(part.text))}</pre>`;
        case 'thinking':
          return `<pre class="thinking">${escape(String(part.thinking))}</pre>`;
        case 'toolCall':
          return `<pre class="call">→ ${escape(String(part.name))} ${escape(JSON.stringify(part.args))}</pre>`;
        case 'image':
          return `<p class="note">[image ${escape(String(part.mimeType ?? ''))}]</p>`;
        default:
          return `<p class="note">[${escape(String(part.type))}]</p>`;
      }
    })
    .join('');
  const title = message.role === 'toolResult' ? `tool result: ${message.toolName}${message.isError ? ' (error)' : ''}` : message.role;
  return `<section class="message ${message.role}"><h3>${escape(title)}</h3>${body}</section>`;
}

/**
 * A session as one self-contained HTML page (no script, no outside file): what the model sees at
 * the leaf, message by message, and the whole entry tree with each entry's place in the context.
 */
export function sessionHtml(log: SessionLog, info: { path: string; format: string; id: string }): string {
  const plain = styleFor({ write: () => undefined }, {});
  const leaf = log.leafId;
  const tree = sessionTreeLines(log, leaf, plain).map((l) => `<span class="${l.visibility}">${escape(l.text)}</span>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.path)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{white-space:pre-wrap;margin:.3rem 0;font:13px/1.4 ui-monospace,monospace}
.message{border-left:4px solid #999;padding:.2rem .8rem;margin:.8rem 0}
.message h3{margin:.2rem 0;font-size:.85rem;text-transform:uppercase;color:#555}
.user{border-color:#2b6cb0}.assistant{border-color:#2f855a}.toolResult{border-color:#b7791f}
.thinking{color:#777}.call{color:#2f855a}.note{color:#777}
.tree{background:#f6f6f6;padding:.8rem;overflow-x:auto}
.compacted,.hidden,.off-path{color:#999}
</style></head><body>
<h1>${escape(info.path)}</h1>
<p>${escape(info.format)} session ${escape(info.id)} · ${log.size} entries${log.sessionName ? ` · ${escape(log.sessionName)}` : ''}</p>
<h2>What the model sees</h2>
<p>${escape(contextSummary(log, leaf))}</p>
${log.context(leaf).map(messageHtml).join('\n')}
<h2>The log</h2>
<p>● in the context · ○ compacted out (kept in the log) · ◌ cleared tool result · unmarked: another branch</p>
<pre class="tree">${tree}</pre>
</body></html>
`;
}
