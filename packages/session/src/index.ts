export * from './errors.js';
export { CustomTypes, isReservedCustomType, type LabelData, type SessionNameData } from './custom-types.js';
export { importPiSession, type ImportedEntry, type ImportPiOptions, type PiImport } from './pi/import-pi-session.js';
export { exportPiSession, type ExportPiOptions } from './pi/export-pi-session.js';
export { PI_FORMAT_VERSION, type PiFileEntry, type PiSessionHeader, type PiStash } from './pi/pi-format.js';
