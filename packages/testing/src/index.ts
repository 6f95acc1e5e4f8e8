export { fixturePath, fixturesDir, readFixture, type FixtureName } from './fixtures.js';
export { createTurnDriver, userMessage, type DrivenStep, type TurnDriver } from '@tiller/core';
