// Preloaded with `node --import` by the fault tests, to fail the fs layer the way real faults do:
// - DREAMLANE_TEST_ENOSPC=<text>: opening a file for writing whose path contains <text> fails with ENOSPC;
// - DREAMLANE_TEST_KILL_AT=<text>: the process SIGKILLs itself when it opens such a file for writing
//   (a crash or kill -9 at exactly that step);
// - DREAMLANE_TEST_SLOW_AT=<text>: such an open first waits 1.5 s (a slow disk), so a signal can land mid-step.
// Reads are untouched.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

const full = process.env.DREAMLANE_TEST_ENOSPC
const killAt = process.env.DREAMLANE_TEST_KILL_AT
const slowAt = process.env.DREAMLANE_TEST_SLOW_AT
if (full || killAt || slowAt) {
  const noSpace = (path) => {
    const error = new Error(`ENOSPC: no space left on device, open '${path}'`)
    return Object.assign(error, { code: 'ENOSPC', errno: -28, syscall: 'open', path: String(path) })
  }
  const writes = (flags) => typeof flags === 'string' && /[wa+]/.test(flags)
  const fault = (path) => {
    if (killAt && String(path).includes(killAt)) process.kill(process.pid, 'SIGKILL')
    if (full && String(path).includes(full)) throw noSpace(path)
  }
  const open = fs.promises.open
  fs.promises.open = async (path, flags, mode) => {
    if (writes(flags) && slowAt && String(path).includes(slowAt))
      await new Promise((r) => setTimeout(r, 1500))
    if (writes(flags)) fault(path)
    return open(path, flags, mode)
  }
  const createWriteStream = fs.createWriteStream
  fs.createWriteStream = (path, options) => {
    fault(path)
    return createWriteStream(path, options)
  }
  syncBuiltinESMExports()
}
