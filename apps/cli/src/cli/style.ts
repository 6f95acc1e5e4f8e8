/** Where the CLI writes: a stream that may be a terminal. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

export interface Style {
  /** True when escape codes are written: a terminal, and neither NO_COLOR nor TERM=dumb. */
  readonly color: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const code = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** Colour only on a terminal; `NO_COLOR` (any non-empty value, see no-color.org) and `TERM=dumb` turn it off. */
export function styleFor(stream: OutStream, env: NodeJS.ProcessEnv): Style {
  const color = Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';
  const plain = (text: string) => text;
  return {
    color,
    bold: color ? code(1, 22) : plain,
    dim: color ? code(2, 22) : plain,
    red: color ? code(31, 39) : plain,
    green: color ? code(32, 39) : plain,
    yellow: color ? code(33, 39) : plain,
    cyan: color ? code(36, 39) : plain,
    magenta: color ? code(35, 39) : plain,
  };
}
