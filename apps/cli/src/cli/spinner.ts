import type { OutStream, Style } from './style.js';

export interface Spinner {
  /**
   * Shows `text` with a spinner on a terminal; elsewhere writes it once as a plain line, unless it
   * is `transient` (worth seeing while it lasts, not worth a line in a log).
   */
  start(text: string, options?: { transient?: boolean }): void;
  /** Clears the spinner's line (a terminal) so that what follows starts at column 0. */
  stop(): void;
  readonly spinning: boolean;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A one-line spinner that animates only when the stream is a terminal and colour is on. */
export function createSpinner(stream: OutStream, style: Style): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let label = '';
  const draw = () => {
    stream.write(`\r\u001b[K${style.cyan(FRAMES[frame % FRAMES.length]!)} ${label}`);
    frame += 1;
  };
  return {
    get spinning() {
      return timer !== undefined;
    },
    start(text, options = {}) {
      label = text;
      if (!style.color) {
        if (!options.transient) stream.write(`${text}\n`);
        return;
      }
      if (timer) return;
      draw();
      timer = setInterval(draw, 80);
      timer.unref();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      stream.write('\r\u001b[K');
    },
  };
}
