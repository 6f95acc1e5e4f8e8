// Run by write-faults.test.ts (bundled, as plain `node`) under a file size limit: upgrades a
// session file in place, which writes a whole copy beside it. Prints what the call said as JSON.
import { upgradeSessionFile } from '../../src/jsonl/upgrade-session-file.js';

const [file] = process.argv.slice(2) as [string];
try {
  process.stdout.write(`${JSON.stringify({ ok: true, result: await upgradeSessionFile(file) })}\n`);
} catch (error) {
  const e = error as Error & { code?: string };
  process.stdout.write(`${JSON.stringify({ ok: false, name: e.name, code: e.code, message: e.message })}\n`);
}
