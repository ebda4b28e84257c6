// Preloaded with `node --import` by the fault sweep: opening a file for writing whose path contains
// DREAMLANE_TEST_ENOSPC fails with ENOSPC, as on a full disk. Reads are untouched.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

const needle = process.env.DREAMLANE_TEST_ENOSPC
if (needle) {
  const full = (path) => {
    const error = new Error(`ENOSPC: no space left on device, open '${path}'`)
    return Object.assign(error, { code: 'ENOSPC', errno: -28, syscall: 'open', path: String(path) })
  }
  const writes = (flags) => typeof flags === 'string' && /[wa+]/.test(flags)
  const open = fs.promises.open
  fs.promises.open = async (path, flags, mode) => {
    if (writes(flags) && String(path).includes(needle)) throw full(path)
    return open(path, flags, mode)
  }
  const createWriteStream = fs.createWriteStream
  fs.createWriteStream = (path, options) => {
    if (String(path).includes(needle)) throw full(path)
    return createWriteStream(path, options)
  }
  syncBuiltinESMExports()
}
