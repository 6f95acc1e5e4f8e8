/**
 * Counts the tokens of a piece of text exactly, for one tokenizer. Estimates use it for text when
 * given one; images and files keep their flat estimate.
 */
export interface TokenCounter {
  /** The tokenizer's name, for provenance (`o200k_base`). */
  readonly name: string;
  count(text: string): number;
}
