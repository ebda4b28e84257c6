// What `dreamlane status` reads and prints, in one module: the build bundles this file and the ~40 modules under
// it into one (scripts/bundle-status.mjs), since Node 20's ESM loader spends about half a millisecond per module.
export { readWorkspaceStatus } from '../read-only.js'
export { describeStatus } from '../chat/describe-status.js'
