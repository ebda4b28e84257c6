// `importHistory`: open the source, stream it into the staging area, then write (or count) it chat by chat.
import { existsSync, realpathSync } from 'node:fs'
import { openMessagesDb, type MessagesDb } from '../db/messages.js'
import { UsageError } from '../errors.js'
import { readChatGpt } from './chatgpt.js'
import { openImportSource, type OpenedSource } from './detect.js'
import { readJsonl } from './jsonl.js'
import { countMessages, openPiclawDb, readPiclaw } from './piclaw.js'
import { Stage } from './stage.js'
import type { ImportCounts, ImportFormat, ImportProblem, ImportProgress, ReaderOptions } from './types.js'
import { readWhatsApp } from './whatsapp.js'
import { countStage, writeStage, type WriteTally } from './writer.js'

export interface ImportOptions extends ReaderOptions {
  /** File, folder (extracted ChatGPT export) or zip. */
  source: string
  /** @default 'auto' */
  format?: ImportFormat | 'auto'
  /** The messages DB to write (created when missing, unless dryRun). */
  messagesDb: string
  /** Parse and count, write nothing; the messages DB is not even created. @default false */
  dryRun?: boolean
  /** Where the staging file goes (removed afterwards); the CLI passes the OS temp dir. */
  tempDir: string
  onProgress?: (progress: ImportProgress) => void
}

export interface ImportResult extends ImportCounts {
  format: ImportFormat
  source: string
  messagesDb: string
  dryRun: boolean
  /** Bad lines/records with line numbers, at most 200 (`invalid` has the full count). */
  problems: ImportProblem[]
  warnings: string[]
  /** Time span of the imported messages (ISO UTC), for choosing `dream --days`. */
  first: string | null
  last: string | null
}

/**
 * Imports chat history into the messages DB. Memory stays flat whatever the source size: sources are
 * streamed, rows staged on disk, and each chat is moved in one transaction (all of it or none of it).
 */
export async function importHistory(options: ImportOptions): Promise<ImportResult> {
  const opened = await openImportSource(options.source, options.format ?? 'auto')
  let stage: Stage | null = null
  let target: MessagesDb | null = null
  try {
    if (opened.format === 'piclaw') refuseSelfImport(opened.file, options.messagesDb)
    // An existing DB is opened (and its schema checked) before a long read; a new one is only created to write.
    target = existsSync(options.messagesDb)
      ? openMessagesDb(options.messagesDb, { readonly: options.dryRun })
      : null
    let total = opened.format === 'piclaw' ? 0 : opened.input.size
    let done = 0
    const unit = opened.format === 'piclaw' ? 'rows' : 'bytes'
    const report = (progress: Omit<ImportProgress, 'messages'>) =>
      options.onProgress?.({ ...progress, messages: stage?.staged ?? 0 })
    stage = new Stage(options.tempDir, (units) => {
      done += units
      report({ phase: 'read', unit, done, total: Math.max(total, done) })
    })
    await readSource(opened, stage, options, (sourceTotal) => {
      total = sourceTotal
      report({ phase: 'read', unit, done: 0, total })
    })
    stage.seal()
    const onChat = (chatsDone: number, chats: number) =>
      report({ phase: 'write', unit: 'chats', done: chatsDone, total: chats })
    let tally: WriteTally
    if (options.dryRun) tally = countStage(stage, target, onChat)
    else {
      target ??= openMessagesDb(options.messagesDb, { create: true })
      tally = writeStage(stage, target, onChat)
    }
    return {
      format: opened.format,
      source: options.source,
      messagesDb: options.messagesDb,
      dryRun: options.dryRun ?? false,
      ...tally,
      skipped: stage.skipped,
      invalid: stage.problemCount,
      problems: stage.problems,
      warnings: stage.warnings,
      first: stage.first,
      last: stage.last,
    }
  } finally {
    target?.close()
    stage?.close()
    opened.close()
  }
}

async function readSource(
  opened: OpenedSource,
  stage: Stage,
  options: ImportOptions,
  onTotal: (total: number) => void,
): Promise<void> {
  if (opened.format === 'piclaw') {
    const source = openPiclawDb(opened.file)
    try {
      onTotal(countMessages(source))
      readPiclaw(source, stage)
    } finally {
      source.close()
    }
    return
  }
  if (opened.format === 'chatgpt') await readChatGpt(opened.input, stage, options)
  else if (opened.format === 'whatsapp')
    await readWhatsApp(opened.input, stage, { ...options, nameHint: opened.nameHint })
  else await readJsonl(opened.input, stage, options)
}

function refuseSelfImport(source: string, messagesDb: string): void {
  if (existsSync(messagesDb) && realpathSync(source) === realpathSync(messagesDb)) {
    throw new UsageError(`${source} already is the messages DB dreamlane reads; there is nothing to import`)
  }
}
