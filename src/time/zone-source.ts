// Where a fresh process's default zone comes from, read without asking ICU (its first Intl call costs ~20 ms).
import { readlinkSync } from 'node:fs'

/** Where glibc, musl and macOS look for the system zone; ICU reads the zone's name off this link. */
export const SYSTEM_LOCALTIME = '/etc/localtime'

/**
 * A text that changes whenever `defaultTimeZone(envTz)` could: `envTz` and the target of the system's
 * localtime link. Undefined where that is not a link (a copied zone file, Windows): only ICU can tell then.
 */
export function defaultZoneSource(
  envTz: string | undefined,
  localtime: string = SYSTEM_LOCALTIME,
): string | undefined {
  let target: string
  try {
    target = readlinkSync(localtime)
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException | null)?.code === 'string') return undefined
    throw error
  }
  return JSON.stringify([envTz ?? null, target])
}
