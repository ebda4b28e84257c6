// Random hex for temp-file names and run ids. node:crypto is loaded by the first call, not at import:
// `dreamlane status` imports the modules that name temp files and runs but never names one (the load is ~4 ms).

/** `bytes` random bytes as lowercase hex (twice as many digits). */
export function randomHex(bytes: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex')
}
