import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockedVersionOverrides } from './locked-versions.js';

const LOCKFILE = `lockfileVersion: '9.0'

packages:

  '@pnpm/exe@12.4.2':
    resolution: {integrity: sha512-x}

snapshots:

  '@pnpm/exe@12.4.2': {}

---
lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      ws:
        specifier: 8.23.0
        version: 8.23.0

packages:

  '@statelyai/inspect@0.7.2':
    resolution: {integrity: sha512-a}
    peerDependencies:
      xstate: ^5.5.1

  eventemitter3@4.0.7:
    resolution: {integrity: sha512-b}

  eventemitter3@5.0.1:
    resolution: {integrity: sha512-c}

  p-queue@0.3.1:
    resolution: {integrity: sha512-d}

  p-queue@0.4.0:
    resolution: {integrity: sha512-e}

  ws@8.23.0:
    resolution: {integrity: sha512-f}

snapshots:

  '@statelyai/inspect@0.7.2(xstate@5.33.3)':
    dependencies:
      ws: 8.23.0
`;

describe('lockedVersionOverrides', () => {
  it("pins each package of the project's lockfile to its locked version, per major where it has several", () => {
    expect(lockedVersionOverrides(LOCKFILE)).toEqual({
      '@statelyai/inspect': '0.7.2',
      'eventemitter3@4': '4.0.7',
      'eventemitter3@5': '5.0.1',
      'p-queue@0.3': '0.3.1',
      'p-queue@0.4': '0.4.0',
      ws: '8.23.0',
    });
  });

  it("reads the workspace's own lockfile, not the lockfile of pnpm itself before it", async () => {
    const overrides = lockedVersionOverrides(await readFile(join(import.meta.dirname, '..', 'pnpm-lock.yaml'), 'utf8'));
    expect(overrides).toMatchObject({ xstate: expect.stringMatching(/^5\./), zod: expect.stringMatching(/^4\./), ws: expect.stringMatching(/^8\./) });
    expect(Object.keys(overrides).filter((name) => name.startsWith('@pnpm/exe'))).toEqual([]);
  });

  it('fails, saying so, on a file with no packages', () => {
    expect(() => lockedVersionOverrides("lockfileVersion: '9.0'\n")).toThrow('no packages: section');
  });
});
