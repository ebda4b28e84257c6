// A one-shot command that ends within a second or two gains nothing from V8's optimising compilers.
import { setFlagsFromString } from 'node:v8'

/**
 * Turns off V8's optimising tiers (TurboFan, Maglev) for the rest of this process; the interpreter and the
 * baseline compiler still run everything. Measured on `backups create` of 2,000 notes: TurboFan's background
 * compiles were ~140 ms of CPU on V8's helper threads and ~10 MiB of peak RSS, for code that ran under half a
 * second more; of 20,000 notes, peak RSS 91 vs 100-130 MiB for ~10% more CPU on the main thread and the same wall time.
 * Only for processes that end when the command does: a server needs its hot code optimised.
 */
export function skipOptimisingCompilers(): void {
  setFlagsFromString('--no-turbofan')
  setFlagsFromString('--no-maglev')
}
