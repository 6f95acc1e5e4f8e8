/**
 * A list that puts only the rows in view into the DOM, so a pane of thousands of rows costs what
 * a screenful costs, to step and to scroll. Rows have heights known before they are drawn; their
 * offsets are prefix sums, and the first row in view is found by binary search. Rows can be
 * appended (a live journal); `redraw` draws the rows in view again after a change of selection.
 *
 * Stepping must not read layout: a read after another pane changed the DOM makes the browser lay
 * out the whole page there and then, once per pane. So the list keeps its own scroll offset and
 * height (from scroll events and a ResizeObserver), and a scroll it needs is written in the next
 * animation frame, together with the other panes' scrolls.
 */
import { el } from './dom.js';

export interface VirtualList {
  /** Adds rows at the end. */
  append(heights: readonly number[]): void;
  /** Removes every row. */
  reset(): void;
  readonly count: number;
  redraw(): void;
  /** Makes every row in view anew (its content changed: a live journal timed a tool). */
  rerender(): void;
  /** Scrolls just enough to show row `index`. */
  reveal(index: number): void;
}

/**
 * `render` makes a row; `update`, when given, brings a row drawn before up to date (its classes)
 * so a step that does not scroll changes only what changed. Without `update`, rows are made anew
 * at every redraw.
 */
export function virtualList(host: HTMLElement, render: (index: number) => HTMLElement, update?: (index: number, row: HTMLElement) => void): VirtualList {
  const spacer = el('div', { class: 'spacer' });
  const layer = el('div', { class: 'rows' });
  spacer.append(layer);
  host.append(spacer);
  let offsets: number[] = [0];
  let scheduled = false;
  let top = 0;
  let height = host.clientHeight;
  let pendingScroll: number | null = null;
  let drawn = new Map<number, HTMLElement>();
  new ResizeObserver(([entry]) => {
    height = entry?.contentRect.height ?? height;
    draw();
  }).observe(host);

  const count = () => offsets.length - 1;
  const firstAt = (top: number) => {
    let lo = 0;
    let hi = count() - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= top) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  };
  const draw = () => {
    const bottom = top + height;
    const next = new Map<number, HTMLElement>();
    for (let i = firstAt(top); i < count() && offsets[i]! < bottom + 40; i++) {
      const kept = update ? drawn.get(i) : undefined;
      if (kept) {
        update!(i, kept);
        next.set(i, kept);
        continue;
      }
      const row = render(i);
      row.style.position = 'absolute';
      row.style.top = `${offsets[i]}px`;
      row.style.height = `${offsets[i + 1]! - offsets[i]!}px`;
      next.set(i, row);
      layer.append(row);
    }
    // Rows are placed absolutely: their order in the layer does not matter.
    for (const [i, row] of drawn) if (next.get(i) !== row) row.remove();
    drawn = next;
  };
  host.addEventListener('scroll', () => {
    if (pendingScroll !== null || host.scrollTop === top) return;
    top = host.scrollTop;
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      draw();
    });
  });

  function scrollTo(offset: number): void {
    top = Math.max(0, offset);
    if (pendingScroll === null) {
      requestAnimationFrame(() => {
        host.scrollTop = pendingScroll ?? top;
        pendingScroll = null;
      });
    }
    pendingScroll = top;
  }

  return {
    append(heights) {
      for (const h of heights) offsets.push(offsets.at(-1)! + h);
      spacer.style.height = `${offsets.at(-1)}px`;
    },
    reset() {
      offsets = [0];
      spacer.style.height = '0px';
      scrollTo(0);
      layer.replaceChildren();
      drawn = new Map();
    },
    get count() {
      return count();
    },
    redraw: draw,
    rerender() {
      for (const row of drawn.values()) row.remove();
      drawn = new Map();
      draw();
    },
    reveal(index) {
      const rowTop = offsets[index];
      const rowBottom = offsets[index + 1];
      if (rowTop === undefined || rowBottom === undefined) return;
      if (rowTop < top) scrollTo(rowTop);
      else if (rowBottom > top + height) scrollTo(rowBottom - height);
    },
  };
}
