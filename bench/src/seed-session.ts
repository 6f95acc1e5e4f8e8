import { generatePiSession, readFixture, recordedFixtures } from '@tiller/testing';

/**
 * The pi session the benchmark sessions grow from: the large recorded session when it is there,
 * else a generated one of about its length (a clone of the repository has no recordings).
 */
export function seedSessionText(): string {
  if (recordedFixtures().available) return readFixture('pi-large-session.jsonl');
  return generatePiSession({ seed: 1018, format: 1, turns: 130, longLastTurn: false, compactions: false, shellCommands: false }).text;
}
