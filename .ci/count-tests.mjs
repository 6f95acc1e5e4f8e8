// Prints `N passed, N failed` from vitest's JSON report; a missing report means no test ran.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!existsSync(file)) {
  console.log('0 passed, 0 failed');
  console.error(`no test report at ${file}: the tests did not run`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(passed > 0 ? 0 : 1);
