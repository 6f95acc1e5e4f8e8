import { z } from 'zod';

/**
 * Checks the options of one of this package's functions: a bad or unknown option is a `TypeError`
 * naming the function and the option, before anything starts. The testing kit has no error class
 * of its own: it fails the test that misuses it, at the line that does.
 */
export function checkOptions<S extends z.ZodType>(entryPoint: string, schema: S, options: unknown): z.output<S> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) throw new TypeError(`${entryPoint}: invalid options:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const positiveInt = z.number().int().positive();
export const nonnegativeInt = z.number().int().nonnegative();
export const fn = (what: string) => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { message: `expected ${what}` });
