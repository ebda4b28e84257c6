// `dreamlane import <source>`: bring chat history (PiClaw DB, ChatGPT export, WhatsApp export, JSONL) into the messages DB.
import { tmpdir } from 'node:os'
import type { Command } from 'commander'
import { Option } from '../commander.js'
import type { ResolvedConfig } from '../../config/schema.js'
import type { ImportResult } from '../../import/import-history.js'
import { createProgressBar } from '../../import/progress.js'
import type { DateOrder, ImportFormat } from '../../import/types.js'
import { localDayOf } from '../../time/local-day.js'
import { cliContext } from '../context.js'

interface ImportFlags {
  format: ImportFormat | 'auto'
  chatName?: string
  me?: string
  dateOrder?: DateOrder
  dryRun?: boolean
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description(
      'import chat history into the messages DB: a PiClaw DB, a ChatGPT export, a WhatsApp export or JSONL',
    )
    .argument('<source>', 'file, zip, or extracted ChatGPT export folder')
    .addOption(
      new Option('--format <format>', 'source format')
        .choices(['auto', 'piclaw', 'chatgpt', 'whatsapp', 'jsonl'])
        .default('auto'),
    )
    .option('--chat-name <name>', 'chat name (WhatsApp; the chat of JSONL lines without "chat")')
    .option(
      '--me <name>',
      'your name as the export writes it: your WhatsApp messages get is_from_me; ChatGPT shows it as sender',
    )
    .addOption(
      new Option('--date-order <order>', 'WhatsApp date order when the file cannot tell').choices([
        'dmy',
        'mdy',
        'ymd',
      ]),
    )
    .option('--dry-run', 'parse and count only; write nothing (the messages DB is not created)')
    .addHelpText(
      'after',
      '\nZone-less times (WhatsApp, JSONL without an offset) are read in --tz (default: the configured timezone).',
    )
    .action(async (source: string, flags: ImportFlags, command: Command) => {
      const ctx = await cliContext(command)
      const { importHistory } = await import('../../import/import-history.js')
      const bar = ctx.json
        ? null
        : createProgressBar({
            write: (text) => process.stderr.write(text),
            isTTY: process.stderr.isTTY === true,
            nowMs: () => Date.now(),
          })
      let result: ImportResult
      try {
        result = await importHistory({
          source,
          format: flags.format,
          messagesDb: ctx.paths.messagesDb,
          dryRun: flags.dryRun ?? false,
          tempDir: tmpdir(),
          timeZone: ctx.config.timezone,
          chatName: flags.chatName,
          me: flags.me,
          dateOrder: flags.dateOrder,
          onProgress: (progress) => bar?.update(progress),
        })
      } finally {
        bar?.finish()
      }
      const spanDays = daysToCover(result.first, ctx.config.timezone)
      const dreamDays = spanDays === null ? null : Math.min(spanDays, ctx.config.dream.maxDays)
      ctx.print({ ok: true, ...result, dreamDays }, () => describe(result, spanDays, ctx.config))
    })
}

/** Local days from the oldest imported message through today: the `dream --days` that covers it all. */
function daysToCover(first: string | null, timeZone: string): number | null {
  if (first === null) return null
  const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000
  return Math.max(
    1,
    dayNumber(localDayOf(new Date(), timeZone)) - dayNumber(localDayOf(new Date(first), timeZone)) + 1,
  )
}

function dreamHint(days: number, maxDays: number): string {
  if (days <= maxDays) return ` — consolidate it with \`dreamlane dream --days ${days}\``
  return ` — \`dreamlane dream --days ${maxDays}\` consolidates the last ${maxDays} days (dream.maxDays); older days stay in the messages DB`
}

function describe(result: ImportResult, spanDays: number | null, config: ResolvedConfig): string {
  const timeZone = config.timezone
  const verb = result.dryRun ? 'would import' : 'imported'
  const shown = result.problems.slice(0, 20)
  const unshown = result.invalid - shown.reduce((sum, p) => sum + (p.count ?? 1), 0)
  const lines = [
    `${result.dryRun ? 'dry run: ' : ''}${verb} ${result.format} history from ${result.source}${result.dryRun ? '' : ` into ${result.messagesDb}`}`,
    `  chats ${result.chats} · messages ${result.messages} · skipped ${result.skipped} · duplicates ${result.duplicates} · invalid ${result.invalid}`,
    ...shown.map(
      (p) =>
        `  ${p.line !== undefined ? `line ${p.line}` : (p.item ?? 'source')}: ${p.reason}${p.count && p.count > 1 ? ` (${p.count})` : ''}`,
    ),
    unshown > 0
      ? `  … ${unshown} more invalid record(s)${result.problems.length > shown.length ? ' (see --json)' : ''}`
      : '',
    ...result.warnings.map((warning) => `  warning: ${warning}`),
  ]
  if (result.first && result.last && spanDays !== null) {
    lines.push(
      `  history spans ${localDayOf(new Date(result.first), timeZone)} .. ${localDayOf(new Date(result.last), timeZone)} (${timeZone})` +
        (result.dryRun ? '' : dreamHint(spanDays, config.dream.maxDays)),
    )
  }
  return lines.filter(Boolean).join('\n')
}
