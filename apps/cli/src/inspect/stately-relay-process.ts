// Stately's relay in a process of its own: its server offers no way to end the connections of
// the pages watching it, so it is stopped by ending this process. It ends with its parent too:
// the IPC channel closes when the parent goes, however it went.
import { createInspectorServer } from '@statelyai/inspect/server';

const port = Number(process.argv[2]);
createInspectorServer({ port, autoOpen: false });
process.on('disconnect', () => process.exit(0));
