import type { UserMessage } from '../schema/message.js';

/** The user message that stands for everything a compaction took out of the context. */
export function compactionSummaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `Earlier parts of this conversation were condensed to keep the context small. What they established:\n\n<summary>\n${summary}\n</summary>`,
      },
    ],
  };
}

/** The user message that carries what was learned on a branch the conversation left. */
export function branchSummaryMessage(summary: string): UserMessage {
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `The conversation came back here from another line of work. What that work found:\n\n<summary>\n${summary}\n</summary>`,
      },
    ],
  };
}
