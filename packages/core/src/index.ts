export * from './schema/message.js';
export * from './schema/usage.js';
export * from './schema/entry.js';
export { buildContext, entryMessage } from './context/build-context.js';
export { branchSummaryMessage, compactionSummaryMessage } from './context/summary-messages.js';
