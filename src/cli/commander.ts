// commander, loaded through require(): it is CommonJS, and an ESM import goes through its wrapper (about 3 ms of every start).
import { createRequire } from 'node:module'
import type * as Commander from 'commander'

const commander = createRequire(import.meta.url)('commander') as typeof Commander

export const { Command, CommanderError, InvalidArgumentError, Option } = commander
