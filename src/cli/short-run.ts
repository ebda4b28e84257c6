// A one-shot command that ends within a second or two gains nothing from V8's optimising compilers.
import { setFlagsFromString } from 'node:v8'

/**
 * Turns off V8's optimising tiers (TurboFan, Maglev) for the rest of this process; the interpreter and the
 * baseline compiler still run everything. Measured on `backups create` of 2,000 notes: TurboFan's background
 * compiles were ~140 ms of CPU on V8's helper threads and ~10 MiB of peak RSS, for code that ran under half a
 * second more; of 20,000 notes, peak RSS 91 vs 100-130 MiB for ~10% more CPU on the main thread and the same wall time.
 * Only for processes that end when the command does: a server needs its hot code optimised.
 *
 * Changing the flags changes V8's flag hash, and V8 then refuses every code cache made before, Node's own for its
 * built-in modules included: each built-in loaded afterwards is compiled from source (a pack thread's start took
 * ~60 ms instead of ~30, the main thread's built-ins ~10 ms more). Call it once the command's modules and threads
 * are loaded (`skipOptimisingCompilersOnce`).
 */
export function skipOptimisingCompilers(): void {
  setFlagsFromString('--no-turbofan')
  setFlagsFromString('--no-maglev')
}

/** skipOptimisingCompilers once every one of `loaded` has settled (fulfilled or not). */
export async function skipOptimisingCompilersOnce(loaded: readonly Promise<unknown>[]): Promise<void> {
  await Promise.allSettled(loaded)
  skipOptimisingCompilers()
}
