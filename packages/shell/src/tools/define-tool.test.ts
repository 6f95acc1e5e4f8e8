import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { defineTool } from './define-tool.js';

describe('defineTool', () => {
  it('shows the model its input as JSON Schema', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Searches the notes.',
      input: z.object({ query: z.string().describe('what to look for'), limit: z.number().int().optional() }),
      execute: () => [],
    });
    expect(tool.spec).toEqual({
      name: 'search',
      description: 'Searches the notes.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'what to look for' }, limit: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) } },
        required: ['query'],
        additionalProperties: false,
      },
    });
  });

  it('names the field of a bad definition', () => {
    const base = { description: 'd', input: z.object({}), execute: () => '' };
    expect(() => defineTool({ ...base, name: 'has space' })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...base, name: 'has space' })).toThrow(/defineTool "has space"[\s\S]*letters, digits[\s\S]*at name/);
    expect(() => defineTool({ ...base, name: 'ok', description: '' })).toThrow(/a description the model can read[\s\S]*at description/);
    expect(() => defineTool({ ...base, name: 'ok', input: { type: 'object' } as never })).toThrow(/expected a zod schema[\s\S]*at input/);
    expect(() => defineTool({ ...base, name: 'ok', timeoutMs: -1 })).toThrow(/at timeoutMs/);
  });

  it('says zod 4 is needed when given a zod 3 schema', () => {
    const base = { name: 'old', description: 'd', execute: () => '' };
    expect(() => defineTool({ ...base, input: z3.object({ q: z3.string() }) as never })).toThrow(/zod 3 schema \(zod 4 is needed[\s\S]*at input/);
  });

  it('refuses an input schema that is not an object, which providers refuse', () => {
    const base = { description: 'd', execute: () => '' };
    expect(() => defineTool({ ...base, name: 'text', input: z.string() })).toThrow(/defineTool "text": input must be an object schema .*type "string"/);
    expect(() => defineTool({ ...base, name: 'either', input: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) })).toThrow(/a union/);
    expect(() => defineTool({ ...base, name: 'fine', input: z.object({ a: z.string().optional() }) })).not.toThrow();
  });
});
