/**
 * Index of the last line that is not blank, or -1 when every line is. A line that fails to parse
 * there is a write cut off by a crash; anywhere before it, damage. Found once per read, so telling
 * the two apart costs nothing per line.
 */
export function lastContentLine(lines: readonly string[]): number {
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  return last;
}
