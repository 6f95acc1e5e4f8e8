/** The markers around the copy of the latest results in docs/performance.md. */
export const LATEST_RESULTS_BEGIN = '<!-- latest results: written by `pnpm bench` from bench/RESULTS.md; do not edit by hand -->';
export const LATEST_RESULTS_END = '<!-- end of latest results -->';

/**
 * The part of bench/RESULTS.md that docs/performance.md shows: everything below its title (the
 * run's line, the table, the scaling table) but its link back to the page, headings one level
 * down to sit under the page's own.
 */
export function latestResultsBlock(resultsMarkdown: string): string {
  const body = resultsMarkdown.replace(/^# [^\n]*\n+/, '').replace(/^How each number is measured: [^\n]*\n/m, '');
  return body.replace(/^## /gm, '### ').trimEnd();
}

/** `doc` with the text between the markers replaced by the latest results; throws if the markers are missing. */
export function withLatestResults(doc: string, resultsMarkdown: string): string {
  const begin = doc.indexOf(LATEST_RESULTS_BEGIN);
  const end = doc.indexOf(LATEST_RESULTS_END);
  if (begin < 0 || end < begin) {
    throw new Error(`docs/performance.md needs the lines ${LATEST_RESULTS_BEGIN} and ${LATEST_RESULTS_END}, in that order, around the latest results`);
  }
  return `${doc.slice(0, begin + LATEST_RESULTS_BEGIN.length)}\n\n${latestResultsBlock(resultsMarkdown)}\n\n${doc.slice(end)}`;
}

/** The latest results as docs/performance.md shows them now, or undefined without the markers. */
export function shownLatestResults(doc: string): string | undefined {
  const begin = doc.indexOf(LATEST_RESULTS_BEGIN);
  const end = doc.indexOf(LATEST_RESULTS_END);
  if (begin < 0 || end < begin) return undefined;
  return doc.slice(begin + LATEST_RESULTS_BEGIN.length, end).trim();
}
