/**
 * How every journal header begins: the shell writes the header object with `type` first, and
 * `JSON.stringify` keeps that order and adds no space.
 */
const HEADER_OPENING = '{"type":"header"';

/** A line that is not JSON, split where the next run's header begins inside it. */
export interface SplitTornLine {
  /** The bytes a crash cut short, before the header. */
  torn: string;
  /** The header, parsed; each reader checks its format and version as it checks any header. */
  header: Record<string, unknown>;
}

/**
 * A line that is not JSON is a write a crash cut short. When whatever appended the next run did
 * not end that line first, the new run's header follows the torn bytes on the same line: read
 * whole, the line is torn and the new run's lines would join the run before it. This finds the
 * header inside such a line, so every reader of a journal (the shell's, the inspector's) splits it
 * the same way. Undefined when no header starts after the line's first character.
 */
export function splitTornLine(line: string): SplitTornLine | undefined {
  // The opening can only be structure, never inside a string (whose quotes are escaped); a torn
  // line may still hold one that does not run to the end (a header cut short, or a value that
  // looks like one), so each is tried until one parses to the end of the line.
  for (let at = line.indexOf(HEADER_OPENING, 1); at !== -1; at = line.indexOf(HEADER_OPENING, at + 1)) {
    let header: unknown;
    try {
      header = JSON.parse(line.slice(at));
    } catch {
      continue;
    }
    return { torn: line.slice(0, at), header: header as Record<string, unknown> };
  }
  return undefined;
}
