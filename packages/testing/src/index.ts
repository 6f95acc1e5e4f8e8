export { fixturePath, fixturesDir, readFixture, type FixtureName } from './fixtures.js';
