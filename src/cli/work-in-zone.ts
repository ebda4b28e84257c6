// A one-shot command that reads and prints in the configured zone makes it the process's own (TZ), so its local
// days and times, and croner's, come from Date instead of an Intl formatter (about 12 ms of ICU set-up).
import { canBeHostZone, setHostZone } from '../time/local-day.js'

/** Sets TZ to `timeZone` and declares it to time/local-day when ICU will take it from TZ as it is. */
export function workInZone(timeZone: string): void {
  if (!canBeHostZone(timeZone)) return
  if (process.env.TZ !== timeZone) process.env.TZ = timeZone
  setHostZone(timeZone)
}
