import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/workspace.js'
import { fixture, readDb } from './world.js'

describe('dreamlane import', () => {
  it('imports with a progress bar on stderr and a final count; --json prints the counts on stdout', async () => {
    const dir = makeTempDir()
    const text = await runCli([
      '--workspace',
      dir,
      '--tz',
      'Europe/Berlin',
      'import',
      fixture('history.jsonl'),
    ])
    expect(text.code).toBe(0)
    expect(text.stderr).toMatch(/reading {2}\[#+\] 100%/)
    expect(text.stderr).toMatch(/writing {2}\[#+\] 100% {2}2\/2 chats/)
    expect(text.stdout).toMatch(/imported jsonl history from .*history\.jsonl into .*messages\.db/)
    expect(text.stdout).toContain('chats 2 · messages 4 · skipped 1 · duplicates 0 · invalid 3')
    expect(text.stdout).toContain('line 5: role: expected "user" or "assistant"')
    // The hint depends on how old the fixture is by now: within dream.maxDays, or older.
    expect(text.stdout).toMatch(
      /history spans 2025-11-02 \.\. 2025-11-04 \(Europe\/Berlin\) — (consolidate it with `dreamlane dream --days \d+`|`dreamlane dream --days 365` consolidates the last 365 days)/,
    )

    const json = await runCli(['--workspace', dir, '--json', 'import', fixture('history.jsonl')])
    expect(json.code).toBe(0)
    expect(json.stderr).toBe('')
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      format: 'jsonl',
      chats: 2,
      messages: 0,
      duplicates: 4,
      invalid: 3,
    })
    expect(readDb(join(dir, '.dreamlane', 'messages.db')).messages).toHaveLength(4)
  })

  it('--dry-run with --format, --chat-name and --me writes nothing at all', async () => {
    const dir = makeTempDir()
    const result = await runCli([
      '--workspace',
      dir,
      '--json',
      'import',
      fixture('whatsapp-ios/_chat.txt'),
      '--format',
      'whatsapp',
      '--chat-name',
      'Family',
      '--me',
      'Anna',
      '--dry-run',
    ])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      dryRun: true,
      format: 'whatsapp',
      chats: 1,
      messages: 5,
      warnings: [],
    })
    expect(existsSync(join(dir, '.dreamlane'))).toBe(false)
  })

  it('exits 4 for a missing source, 2 for a bad --format or an undecidable file', async () => {
    const dir = makeTempDir()
    const missing = await runCli(['--workspace', dir, 'import', join(dir, 'export.zip')])
    expect(missing.code).toBe(4)
    expect(missing.stderr).toMatch(/import source not found: .*export\.zip/)
    const missingJson = await runCli(['--workspace', dir, '--json', 'import', join(dir, 'export.zip')])
    expect(JSON.parse(missingJson.stdout)).toMatchObject({
      ok: false,
      error: { code: 'IMPORT_SOURCE_MISSING' },
    })

    const badFormat = await runCli([
      '--workspace',
      dir,
      'import',
      fixture('history.jsonl'),
      '--format',
      'telegram',
    ])
    expect(badFormat.code).toBe(2)
    expect(badFormat.stderr).toMatch(/Allowed choices are auto, piclaw, chatgpt, whatsapp, jsonl/)

    const mystery = join(dir, 'mystery.dat')
    writeFileSync(mystery, 'plain words\n')
    const unknown = await runCli(['--workspace', dir, 'import', mystery])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/cannot tell the format .* pass --format/)
    expect(existsSync(join(dir, '.dreamlane', 'messages.db'))).toBe(false)
  })

  it('after an import, `dream --days N` consolidates the imported history', async () => {
    const dir = makeTempDir()
    const source = join(dir, 'recent.jsonl')
    // Real "now": the CLI runs on the system clock, so the history must fall inside the dream window.
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
    writeFileSync(
      source,
      [
        {
          chat: 'telegram:7',
          sender: 'alex',
          role: 'user',
          content: 'I adopted a greyhound called Biscuit.',
          timestamp: at(30),
        },
        {
          chat: 'telegram:7',
          sender: 'bot',
          role: 'assistant',
          content: 'Congratulations on Biscuit!',
          timestamp: at(29.9),
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    )
    const imported = await runCli(['--workspace', dir, '--json', 'import', source])
    expect(imported.code).toBe(0)
    const { dreamDays, first } = JSON.parse(imported.stdout) as { dreamDays: number; first: string }
    expect(dreamDays).toBeGreaterThanOrEqual(2)
    const dream = await runCli(['--workspace', dir, '--json', 'dream', '--days', String(dreamDays)], {
      timeoutMs: 120_000,
    })
    expect(dream.code).toBe(0)
    const day = first.slice(0, 10) // the CLI runs with TZ=UTC
    expect(readFileSync(join(dir, 'notes', 'daily', `${day}.md`), 'utf8')).toContain('Biscuit')
  })
})
