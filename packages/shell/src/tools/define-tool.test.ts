import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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
});
