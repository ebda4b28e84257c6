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
