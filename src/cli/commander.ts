// commander, loaded through require(): it is CommonJS, and an ESM import goes through its wrapper (about 3 ms of every start).
import { createRequire } from 'node:module'
import type * as Commander from 'commander'

const commander = createRequire(import.meta.url)('commander') as typeof Commander

export const { Command, CommanderError, InvalidArgumentError, Option } = commander

/** Parses a positive integer option or throws a usage error naming the flag. */
export function parseCount(flag: string, min = 1): (raw: string) => number {
  return (raw) => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min)
      throw new InvalidArgumentError(`${flag} expects an integer ≥ ${min}, got "${raw}"`)
    return value
  }
}

/**
 * A window's length as asked, capped at `dream.maxDays` as chat's `/dream N` and the HTTP API cap it; a capped
 * request is said on the progress stream, so a year asked for is never taken silently as less.
 */
export function cappedDays(asked: number, maxDays: number, say: (line: string) => void): number {
  if (asked <= maxDays) return asked
  say(`--days ${asked} is more than dream.maxDays (${maxDays}); using the last ${maxDays} days`)
  return maxDays
}
