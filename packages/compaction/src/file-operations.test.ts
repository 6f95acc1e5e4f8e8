import { describe, expect, it } from 'vitest';
import { createFileTracker, formatFileLists } from './file-operations.js';

describe('file tracking', () => {
  it('takes the first path argument present, counts a read-and-modified file as modified, and sorts', () => {
    const tracker = createFileTracker({ read: ['view'], modify: ['patch'], pathArgs: ['file', 'path'] });
    tracker.carry({ readFiles: ['z.md', 'b.ts'], modifiedFiles: ['old.ts'] });
    tracker.add({
      role: 'assistant',
      content: [
        { type: 'toolCall', id: '1', name: 'view', args: { path: 'a.ts' } },
        { type: 'toolCall', id: '2', name: 'view', args: { file: '', path: 'c.ts' } },
        { type: 'toolCall', id: '3', name: 'patch', args: { file: 'b.ts', path: 'ignored.ts' } },
        { type: 'toolCall', id: '4', name: 'view', args: { target: 'nowhere.ts' } },
        { type: 'toolCall', id: '5', name: 'read', args: { path: 'not-configured.ts' } },
      ],
    });
    tracker.add({ role: 'user', content: 'view a.ts' });
    expect(tracker.lists()).toEqual({ readFiles: ['a.ts', 'c.ts', 'z.md'], modifiedFiles: ['b.ts', 'old.ts'] });
  });

  it('closes a summary with the lists, or with nothing when there are none', () => {
    expect(formatFileLists({ readFiles: ['a.ts'], modifiedFiles: ['b.ts', 'c.ts'] })).toBe('\n\n## Files Touched\nRead:\n- a.ts\nModified:\n- b.ts\n- c.ts');
    expect(formatFileLists({ readFiles: [], modifiedFiles: [] })).toBe('');
  });
});
