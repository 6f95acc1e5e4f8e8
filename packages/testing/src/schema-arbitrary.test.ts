import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaArbitrary } from './schema-arbitrary.js';

const draws = (schema: z.ZodType) => fc.sample(schemaArbitrary(schema, 'the input of tool "t"'), { numRuns: 60, seed: 7 });

describe('schemaArbitrary, numbers with one bound far from zero', () => {
  it.each([
    // A bound past the default range failed in fast-check ("fc.double constraints.min must be smaller or equal to constraints.max").
    ['a number of at least 5e6', z.number().min(5e6)],
    ['a number of at most -5e6', z.number().max(-5e6)],
    // An integer bound past it drew one value, or none the schema takes ("could not draw valid arguments").
    ['an integer of at least 5000', z.number().int().min(5000)],
    ['an integer of at most -5000', z.number().int().max(-5000)],
    // Two lower bounds: the tighter one counts, not the first written.
    ['a positive integer of at least 10', z.number().int().positive().min(10)],
    ['a number above 0 and at least 3', z.number().gt(0).min(3)],
  ])('draws values %s that the schema takes, more than one', (_, schema) => {
    const values = draws(schema);
    for (const value of values) expect(schema.safeParse(value).success, `${String(value)}`).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(1);
  });
});
