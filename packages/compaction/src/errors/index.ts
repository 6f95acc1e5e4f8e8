export { TillerCompactionError, type CompactionErrorCode, type TillerCompactionErrorCode } from './tiller-compaction-error.js';
export { CompactionError } from './compaction-error.js';
export { CompactionConfigError } from './compaction-config-error.js';
export { MalformedMessageError } from './malformed-message-error.js';
export { CompactionPolicyError } from './compaction-policy-error.js';
export { CompactionPolicyViolation, type PolicyViolationFacts } from './compaction-policy-violation.js';
