// Preloaded with `node --import` by the start-up tests: appends the URL of every module the process loads
// to the file named by DREAMLANE_TEST_MODULE_LOG, so a test can say which libraries a command pulled in.
import { register } from 'node:module'

const file = process.env.DREAMLANE_TEST_MODULE_LOG
if (file) register('./trace-modules-hooks.mjs', import.meta.url, { data: { file } })
