import { agentHistory } from './src/conversation.js';
import { aiSdkLoop } from './src/ai-sdk-loop.js';
import { langGraphLoop, toLangChainMessages } from './src/langgraph-loop.js';
import { toModelMessages } from '@tiller/shell';
for (const n of [0, 1000]) {
  const h = agentHistory(n);
  const ai = aiSdkLoop(toModelMessages(h.messages));
  let t = performance.now();
  for (let i = 0; i < 3; i++) await ai.prompt('q' + i);
  console.log('ai', n, (performance.now() - t) / 6, ai.messages.slice(n).map((m: any) => m.role));
  for (const kind of ['none', 'memory', 'sqlite'] as const) {
    const lg = await langGraphLoop(toLangChainMessages(h.messages), kind === 'sqlite' ? { kind, file: `/tmp/lg-${n}.sqlite` } : { kind } as any);
    t = performance.now();
    for (let i = 0; i < 3; i++) await lg.prompt('q' + i);
    const ms = await lg.messages();
    console.log('lg', kind, n, (performance.now() - t) / 6, ms.length, ms.slice(n).map((m) => m.getType()));
    await lg.close?.();
  }
}
