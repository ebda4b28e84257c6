// Preloaded with `node --import` by the start-up tests: appends the URL of every module the process loads
// to the file named by DREAMLANE_TEST_MODULE_LOG, so a test can say which libraries a command pulled in.
import { appendFileSync } from 'node:fs'
import Module, { register } from 'node:module'
import { isAbsolute } from 'node:path'
import { pathToFileURL } from 'node:url'

const file = process.env.DREAMLANE_TEST_MODULE_LOG
if (file) {
  register('./trace-modules-hooks.mjs', import.meta.url, { data: { file } })
  // Node 20's loader hooks never see require(): log each file it resolves as well (builtins are not files).
  const resolveFilename = Module._resolveFilename
  Module._resolveFilename = function (...args) {
    const resolved = resolveFilename.apply(this, args)
    if (isAbsolute(resolved)) appendFileSync(file, `${pathToFileURL(resolved).href}\n`)
    return resolved
  }
}
