// What `dreamlane backups create` runs, in one module: the build bundles this file, the backup modules and archiver
// with its CommonJS dependencies (~150 modules) into one (scripts/bundle-status.mjs), since Node 20's loader spends
// about half a millisecond on each and importing archiver's tree was ~110 ms of a 2,000-note backup's process.
export { createBackup } from '../backup/create.js'
