import type { ToolResultContentPart } from '@tiller/core';
import { z } from 'zod';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { ToolSpec } from '@tiller/core';
import { describeThrown } from '../describe-thrown.js';
import { timeLimitMs } from '../timer-ms.js';

export interface ToolContext {
  /** Aborted when the turn is aborted or the tool's time is up. */
  signal: AbortSignal;
  toolCallId: string;
}

/**
 * What a tool returns: text, structured content, or any JSON value (sent as JSON text).
 * `isError` marks a result the model should read as a failure without the tool throwing.
 */
export type ToolOutput = string | { content: ToolResultContentPart[]; details?: unknown; isError?: boolean } | unknown;

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** The arguments' schema: the model is shown it as JSON Schema and every call is checked against it. */
  input: S;
  execute(args: z.output<S>, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  /** Per-call time limit; the agent's `limits.toolTimeoutMs` when omitted. */
  timeoutMs?: number | undefined;
  /** The whole batch runs one call at a time when it holds a call to this tool. */
  sequential?: boolean | undefined;
  /** Safe to run again: after a crash an unfinished call is re-run instead of reported interrupted. */
  idempotent?: boolean | undefined;
}

export interface Tool<S extends z.ZodType = z.ZodType> extends ToolDefinition<S> {
  readonly kind: 'tiller.tool';
  readonly spec: ToolSpec;
}

// Strict: a misspelt option (`timeoutMS`, `idempotant`) is refused, never ignored.
const Definition = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'expected 1-64 letters, digits, "_" or "-" (what providers accept as a tool name)'),
  description: z.string().min(1, 'expected a description the model can read'),
  input: z.custom<z.ZodType>((v) => v instanceof z.ZodType, {
    error: (issue) =>
      isZod3Schema(issue.input)
        ? 'expected a zod 4 schema; this is a zod 3 schema (zod 4 is needed: `import { z } from "zod"` with zod 4 installed)'
        : 'expected a zod schema',
  }),
  execute: z.custom<ToolDefinition['execute']>((v) => typeof v === 'function', { message: 'expected a function' }),
  timeoutMs: timeLimitMs.optional(),
  sequential: z.boolean().optional(),
  idempotent: z.boolean().optional(),
});

/** A tool the agent can run. Throws `ToolDefinitionError` naming the field when the definition is wrong. */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): Tool<S> {
  const parsed = Definition.safeParse(definition);
  if (!parsed.success) {
    const name = typeof definition?.name === 'string' ? ` "${definition.name}"` : '';
    throw new ToolDefinitionError(`defineTool${name}: invalid definition:\n${z.prettifyError(parsed.error)}`);
  }
  let inputSchema: Record<string, unknown>;
  try {
    inputSchema = z.toJSONSchema(definition.input, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch (error) {
    throw new ToolDefinitionError(`defineTool "${definition.name}": input cannot be shown to a model as JSON Schema: ${describeThrown(error)}`);
  }
  delete inputSchema.$schema;
  // Providers take a tool's arguments as one JSON object, and refuse a tool whose schema is not one.
  if (inputSchema.type !== 'object') {
    throw new ToolDefinitionError(
      `defineTool "${definition.name}": input must be an object schema (z.object({...})), since a tool's arguments are a JSON object; got ${describeSchema(inputSchema)}`,
    );
  }
  return { ...definition, kind: 'tiller.tool', spec: { name: definition.name, description: definition.description, inputSchema } };
}

/** A zod 3 schema carries `_def` and `safeParse` but not zod 4's `_zod`. */
function isZod3Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_def' in value && 'safeParse' in value && !('_zod' in value);
}

function describeSchema(schema: Record<string, unknown>): string {
  if (typeof schema.type === 'string') return `a schema of type "${schema.type}"`;
  if (schema.anyOf || schema.oneOf) return 'a union';
  return 'a schema without a type';
}

export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Tool).kind === 'tiller.tool';
}
