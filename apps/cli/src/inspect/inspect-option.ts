import type { OptionSpec } from '../cli/command.js';
import { usageError } from '../cli/errors.js';

/** Who watches a live run: Tiller's own inspector page, or Stately's inspector. */
export type InspectView = 'page' | 'stately';

/** `--inspect` (the inspector page on 127.0.0.1) or `--inspect=stately` (Stately's inspector), for `run` and `demo`. */
export const INSPECT_OPTION = {
  type: 'string',
  optionalValue: true,
  value: 'stately',
  description:
    "follow the run in the inspector on 127.0.0.1 (its URL is printed first; Ctrl-C stops it after a run that ends by itself); =stately feeds Stately's inspector instead (its page is stately.ai: online only)",
} as const satisfies OptionSpec;

/** The view `--inspect` asked for, or undefined when it was not given. */
export function inspectView(command: string, value: string | undefined): InspectView | undefined {
  switch (value) {
    case undefined:
      return undefined;
    case '':
      return 'page';
    case 'stately':
      return 'stately';
    default:
      throw usageError(`tiller ${command}: --inspect takes no value (the inspector page) or =stately (Stately's inspector), got ${JSON.stringify(value)}`);
  }
}
