import fc from 'fast-check';

/**
 * One change to a valid value, for the property tests that hold a shape check to its zod schema:
 * a key removed, given a wrong value, emptied, renamed to another known name, replaced by a part
 * of a type the lists name, turned into an array, given an extra key or a symbol key.
 */
export type Mutation = 'remove' | 'wrong' | 'empty' | 'rename' | 'unknownPart' | 'asArray' | 'extraKey' | 'symbolKey';

export interface Change {
  kind: Mutation;
  /** Which place (an index into the value's places, wrapped). */
  at: number;
  /** Which value of a list (`wrong`, `names`), wrapped. */
  pick: number;
}

/** What mutations draw from: values of the wrong type (and some of the right type that break a rule), and names the schema knows. */
export interface MutationValues {
  wrong: readonly unknown[];
  names: readonly string[];
}

export const changes = (kinds: readonly Mutation[]): fc.Arbitrary<Change> => fc.record({ kind: fc.constantFrom(...kinds), at: fc.nat(), pick: fc.nat() });

type Place = { holder?: Record<PropertyKey, unknown>; key?: string };

/** Every place in `value` a mutation can hit: each key of each object and array, the value itself (`key` undefined) first. */
function places(value: unknown, holder?: Record<PropertyKey, unknown>, key?: string, out: Place[] = []): Place[] {
  out.push({ holder, key });
  if (typeof value === 'object' && value !== null) for (const k of Object.keys(value)) places((value as Record<string, unknown>)[k], value as Record<string, unknown>, k, out);
  return out;
}

/** `valid` as a session line would hold it (a JSON copy), with one mutation applied. */
export function mutated(valid: unknown, { kind, at, pick }: Change, { wrong, names }: MutationValues): unknown {
  const root: { value: unknown } = { value: JSON.parse(JSON.stringify(valid)) };
  const all = places(root.value);
  const place = all[at % all.length]!;
  const holder = place.holder ?? (root as Record<PropertyKey, unknown>);
  const key = place.key ?? 'value';
  const value = holder[key];
  switch (kind) {
    case 'remove':
      if (Array.isArray(holder)) holder.splice(Number(key), 1);
      else delete holder[key];
      break;
    case 'wrong':
      holder[key] = wrong[pick % wrong.length];
      break;
    case 'empty':
      holder[key] = typeof value === 'string' ? '' : Array.isArray(value) ? [] : typeof value === 'object' && value !== null ? {} : 0;
      break;
    case 'rename':
      // Most keys are no `kind`, `type` or `role`: a known name there is only a string, right or wrong.
      holder[key] = names[pick % names.length];
      break;
    case 'unknownPart':
      holder[key] = { type: names[pick % names.length], text: 'x', data: 'x', mimeType: 'x' };
      break;
    case 'asArray':
      holder[key] = typeof value === 'object' && value !== null ? Object.assign([], value) : [value];
      break;
    case 'extraKey':
      if (typeof value === 'object' && value !== null) (value as Record<string, unknown>)[`extra${pick % 3}`] = wrong[pick % wrong.length];
      break;
    case 'symbolKey':
      if (typeof value === 'object' && value !== null) (value as Record<symbol, unknown>)[Symbol('s')] = 1;
      break;
    default: {
      const unknownKind: never = kind;
      throw new Error(`unknown mutation ${String(unknownKind)}`);
    }
  }
  return root.value;
}
