import fc from 'fast-check';
import type { z } from 'zod';

/** The parts of zod 4's internal definition this reads (`schema._zod.def`). */
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

export class SchemaArbitraryError extends Error {
  override readonly name = 'SchemaArbitraryError';
}

/**
 * A fast-check arbitrary for the values a zod schema accepts, for the kinds tool inputs use
 * (strings with lengths, formats and patterns, numbers and integers with bounds, booleans,
 * literals, enums, objects, arrays, tuples, records, unions, optional, nullable and defaults).
 * Anything else fails, naming the place, so the caller can pass an arbitrary of its own.
 */
export function schemaArbitrary(schema: z.ZodType, where = 'input'): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'string':
      return stringArbitrary(checks, where);
    case 'number':
      return numberArbitrary(def, checks);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return fc.option(schemaArbitrary(def.innerType as z.ZodType, where), { nil: undefined });
    case 'nullable':
      return fc.option(schemaArbitrary(def.innerType as z.ZodType, where), { nil: null });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return schemaArbitrary(def.innerType as z.ZodType, where);
    case 'pipe':
      return schemaArbitrary(def.in as z.ZodType, where);
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, schemaArbitrary(field, `${where}.${key}`)]));
      const optional = Object.entries(shape).filter(([, field]) => ['optional', 'default', 'prefault'].includes(defOf(field).type));
      return fc.record(fields, { requiredKeys: Object.keys(shape).filter((k) => !optional.some(([o]) => o === k)) });
    }
    case 'array': {
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 3);
      const exact = checks.find((c) => c.check === 'length_equals')?.length;
      return fc.array(schemaArbitrary(def.element as z.ZodType, `${where}[]`), { minLength: exact ?? min, maxLength: exact ?? max });
    }
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map((item, i) => schemaArbitrary(item, `${where}[${i}]`)));
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), schemaArbitrary(def.valueType as z.ZodType, `${where}[key]`), { maxKeys: 3 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option, i) => schemaArbitrary(option, `${where}|${i}`)));
    case 'any':
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new SchemaArbitraryError(`cannot draw values for ${where}: zod type "${def.type}" is not supported; give an arbitrary for this tool (agentPaths({ arbitraries }))`);
  }
}

function stringArbitrary(checks: CheckDef[], where: string): fc.Arbitrary<string> {
  const format = checks.find((c) => c.check === 'string_format');
  if (format) {
    switch (format.format) {
      case 'email':
        return fc.emailAddress();
      case 'uuid':
      case 'guid':
        return fc.uuid();
      case 'url':
        return fc.webUrl();
      case 'regex':
        return fc.stringMatching(format.pattern!);
      default:
        if (format.pattern) return fc.stringMatching(format.pattern);
        throw new SchemaArbitraryError(`cannot draw values for ${where}: string format "${format.format}" is not supported; give an arbitrary for this tool`);
    }
  }
  const exact = checks.find((c) => c.check === 'length_equals')?.length;
  const min = exact ?? checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = exact ?? checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 12);
  return fc.string({ minLength: min, maxLength: max });
}

/** How far from its one bound a number with no other is drawn (and from zero with none). */
const SPAN = { integer: 1000, double: 1e6 };

function numberArbitrary(def: Def, checks: CheckDef[]): fc.Arbitrary<number> {
  const all = [...checks, ...(def.check ? [def as unknown as CheckDef] : [])];
  const integer = all.some((c) => c.check === 'number_format' && /int/.test(c.format ?? ''));
  // Of several bounds (positive() then min(10)) the tightest holds, whichever was written first.
  const lower = tightest(all.filter((c) => c.check === 'greater_than'), 1);
  const upper = tightest(all.filter((c) => c.check === 'less_than'), -1);
  // With one bound the range sits beside it, so a bound past the default range still has room.
  const span = integer ? SPAN.integer : SPAN.double;
  const low = lower?.value ?? (upper ? Math.min(-span, upper.value! - 2 * span) : -span);
  const high = upper?.value ?? (lower ? Math.max(span, lower.value! + 2 * span) : span);
  if (integer) {
    const min = Math.ceil(lower && !lower.inclusive && Number.isInteger(low) ? low + 1 : low);
    const max = Math.floor(upper && !upper.inclusive && Number.isInteger(high) ? high - 1 : high);
    return fc.integer({ min, max: Math.max(min, max) });
  }
  return fc.double({
    min: low,
    max: Math.max(low, high),
    minExcluded: lower ? !lower.inclusive : false,
    maxExcluded: upper ? !upper.inclusive : false,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** The bound that leaves least room: the largest lower bound (`direction` 1) or the smallest upper one (-1); exclusive before inclusive at one value. */
function tightest(bounds: CheckDef[], direction: 1 | -1): CheckDef | undefined {
  return bounds.reduce<CheckDef | undefined>((best, b) => {
    if (!best) return b;
    const d = (b.value! - best.value!) * direction;
    return d > 0 || (d === 0 && !b.inclusive) ? b : best;
  }, undefined);
}
