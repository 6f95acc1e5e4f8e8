import { describe, expect, it } from 'vitest';
import { CompactionConfigError } from './errors/index.js';
import { compactionSettings, DEFAULT_COMPACTION_SETTINGS, shouldCompact } from './settings.js';

describe('compaction settings', () => {
  it('default to pi\'s: reserve 16,384, keep 20,000, enabled', () => {
    expect(DEFAULT_COMPACTION_SETTINGS).toEqual({ enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 });
    expect(compactionSettings()).toEqual(DEFAULT_COMPACTION_SETTINGS);
    expect(compactionSettings({ keepRecentTokens: 5000 })).toEqual({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 5000 });
  });

  it('reject a bad or unknown option by name', () => {
    expect(() => compactionSettings({ reserveTokens: -1 })).toThrow(CompactionConfigError);
    expect(() => compactionSettings({ reserveTokens: -1 })).toThrow(/^compactionSettings: option "reserveTokens" is invalid/);
    expect(() => compactionSettings({ keepRecent: 5 } as never, 'loadConfig')).toThrow(/^loadConfig: .*keepRecent/);
    expect(() => compactionSettings({ enabled: 'yes' } as never)).toThrow(/option "enabled"/);
  });
});

describe('shouldCompact', () => {
  it('is true once the context reaches into the reserve', () => {
    const settings = compactionSettings({ reserveTokens: 1000 });
    expect(shouldCompact(9000, 10_000, settings)).toBe(false);
    expect(shouldCompact(9001, 10_000, settings)).toBe(true);
    expect(shouldCompact(9001, 10_000, { ...settings, enabled: false })).toBe(false);
  });
});
