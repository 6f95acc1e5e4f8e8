import { describe, expect, it } from 'vitest';
import { splitTornLine } from './split-torn-line.js';

const header = JSON.stringify({ type: 'header', format: 'tiller.journal', version: 3, baseLeafId: null });

describe('splitTornLine', () => {
  it('finds the header that follows the torn bytes', () => {
    expect(splitTornLine(`{"type":"input","seq":4,"inp${header}`)).toEqual({ torn: '{"type":"input","seq":4,"inp', header: JSON.parse(header) });
  });

  it('skips a header cut short in the torn part and finds the whole one after it', () => {
    const cutHeader = header.slice(0, 30);
    expect(splitTornLine(`${cutHeader}${header}`)).toEqual({ torn: cutHeader, header: JSON.parse(header) });
    expect(splitTornLine(`{"type":"input","x":${header.slice(0, 25)}${header}`)?.torn).toBe(`{"type":"input","x":${header.slice(0, 25)}`);
  });

  it('finds nothing in a torn line without a whole header, nor at its first character', () => {
    expect(splitTornLine('{"type":"input","seq":4,"inp')).toBeUndefined();
    expect(splitTornLine(`{"type":"input","seq":4,"inp${header.slice(0, -1)}`)).toBeUndefined();
    expect(splitTornLine(header)).toBeUndefined();
    // A header inside a string is escaped, so it is not taken for one.
    expect(splitTornLine(`{"type":"tool.finished","outcome":${JSON.stringify(header)}`)).toBeUndefined();
  });
});
