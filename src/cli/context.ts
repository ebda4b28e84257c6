// Shared CLI plumbing: global options → resolved config and paths, output in text or JSON, progress lines.
import type { Command } from 'commander'
import type { Logger } from 'pino'
import type { DbWait } from '../db/busy.js'
import type { ConfigFile, ResolvedConfig } from '../config/schema.js'
import { workspacePaths, type WorkspacePaths } from '../notes/paths.js'
import { printErrorLine } from './std-streams.js'

export interface GlobalOptions {
  workspace?: string
  dataDir?: string
  messagesDb?: string
  tz?: string
  json?: boolean
}

export interface CliContext {
  config: ResolvedConfig
  paths: WorkspacePaths
  json: boolean
  /** Prints `data` as JSON with --json, else `text()`. */
  print(data: unknown, text: () => string): void
  /** A progress line on stderr (silent with --json, so stdout stays parseable). */
  progress(message: string): void
  /** Bounded wait on a messages DB another process keeps locked, saying so on stderr each second. */
  dbWait: DbWait
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions
}

export function flagsOf(options: GlobalOptions): ConfigFile {
  return {
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.messagesDb ? { messagesDb: options.messagesDb } : {}),
    ...(options.tz ? { timezone: options.tz } : {}),
  }
}

/**
 * Resolves config and paths for a command. zod is imported only when the inputs differ from the last
 * run's (config/cache.ts), so `--help` never pays for it and a repeated command seldom does.
 */
export async function cliContext(command: Command, extra: ConfigFile = {}): Promise<CliContext> {
  return cliContextFor(globalOptions(command), extra)
}

/**
 * cliContext from global options already parsed (a command run without commander, `cli/plain-args.ts`); `out`
 * writes each printed result (a line and its newline) to stdout.
 */
export async function cliContextFor(
  options: GlobalOptions,
  extra: ConfigFile = {},
  out: (text: string) => void = (text) => console.log(text),
): Promise<CliContext> {
  const { resolveConfigCached } = await import('../config/cache.js')
  const config = await resolveConfigCached({ env: process.env, flags: { ...flagsOf(options), ...extra } })
  const json = Boolean(options.json)
  return {
    config,
    paths: workspacePaths(config),
    json,
    print(data, text) {
      out(json ? JSON.stringify(data, null, 2) : text())
    },
    progress(message) {
      if (!json) printErrorLine(message)
    },
    dbWait: {
      ...dbWaitMsFromEnv(),
      onWait: ({ waitedMs, holder }) =>
        printErrorLine(
          `dreamlane: the messages DB is locked by ${holder ?? 'another process'}; waiting (${Math.round(waitedMs / 1000)} s)…`,
        ),
    },
  }
}

/** DREAMLANE_DB_WAIT_MS: how long to wait on a locked messages DB (default 5000). */
function dbWaitMsFromEnv(): { waitMs?: number } {
  const raw = process.env.DREAMLANE_DB_WAIT_MS
  const value = raw === undefined ? NaN : Number(raw)
  return Number.isFinite(value) && value >= 0 ? { waitMs: value } : {}
}

/**
 * JSON logs on stderr. One-shot commands print their own progress, so they log nothing unless
 * DREAMLANE_LOG_LEVEL asks; `serve` logs at info.
 */
export async function cliLogger(defaultLevel: 'silent' | 'info' = 'silent'): Promise<Logger> {
  const { pino } = await import('pino')
  return pino({ level: process.env.DREAMLANE_LOG_LEVEL ?? defaultLevel }, pino.destination(2))
}
