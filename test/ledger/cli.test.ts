import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { registerDream } from '../../src/cli/commands/dream.js'
import { openMessagesDb } from '../../src/db/messages.js'
import { registerRuns } from '../../src/cli/commands/runs.js'
import { reportError } from '../../src/cli/exit-codes.js'
import { RICH_MEMORY, makeLedgerWorld } from './world.js'

interface CliOutput {
  code: number
  out: string
  err: string
}

/** The real `dream` and `runs` commands, in process, with main.ts's global options. */
async function cli(args: string[]): Promise<CliOutput> {
  const program = new Command('dreamlane')
    .option('-w, --workspace <dir>')
    .option('--data-dir <dir>')
    .option('--messages-db <file>')
    .option('--tz <zone>')
    .option('--json')
    .exitOverride()
  registerDream(program)
  registerRuns(program)
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)))
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  process.exitCode = undefined
  let code = 0
  try {
    await program.parseAsync(['node', 'dreamlane', ...args])
    code = Number(process.exitCode ?? 0)
  } catch (error) {
    code = reportError(error, args.includes('--json'))
  } finally {
    process.exitCode = undefined
    vi.restoreAllMocks()
  }
  return { code, out: out.join('\n'), err: err.join('\n') }
}

afterEach(() => {
  process.exitCode = undefined
})

async function cliWorld(settings: Record<string, unknown>) {
  const world = await makeLedgerWorld()
  // The CLI runs on the system clock: give it chat inside its window.
  const recent = new Date(Date.now() - 2 * 3_600_000).toISOString()
  const db = openMessagesDb(world.paths.messagesDb)
  db.upsertChat('web:main', 'web:main')
  db.insertMessages([
    {
      id: 'cli-1',
      chatJid: 'web:main',
      sender: 'user',
      senderName: 'Alex',
      content: 'My cousin Leonor moved to Coimbra.',
      timestamp: recent,
    },
    {
      id: 'cli-2',
      chatJid: 'web:main',
      sender: 'bot',
      senderName: 'Assistant',
      content: 'Noted: Leonor is in Coimbra.',
      timestamp: recent,
      isBotMessage: true,
    },
  ])
  db.close()
  // The offline engine whatever the environment says: these runs must never reach a network.
  writeFileSync(
    join(world.paths.dataDir, 'config.json'),
    JSON.stringify({ timezone: 'UTC', dream: { provider: 'offline', ...settings } }),
  )
  return world
}

describe('CLI: dream --dry-run, runs show --diff, runs apply|discard|undo', () => {
  it('a dry run prints the diff the real run then shows, and undo puts everything back', async () => {
    const world = await cliWorld({})
    const ws = ['--workspace', world.dir]
    const before = world.snapshot()

    const dry = await cli([...ws, 'dream', '--days', '2', '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.out).toMatch(/Dry run \(nothing in the workspace was touched\): \d+ files changed, \+\d+ −\d+/)
    expect(dry.out).toContain('A real run would keep these changes.')
    expect(dry.out).toMatch(/^\+\+\+ b\/notes\/daily\/\d{4}-\d{2}-\d{2}\.md$/m)
    expect(world.snapshot()).toEqual(before)

    const dryJson = JSON.parse((await cli([...ws, '--json', 'dream', '--days', '2', '--dry-run'])).out) as {
      changes: unknown[]
    }
    const real = JSON.parse((await cli([...ws, '--json', 'dream', '--days', '2'])).out) as {
      id: string
      status: string
    }
    expect(real.status).toBe('succeeded')
    const shown = JSON.parse((await cli([...ws, '--json', 'runs', 'show', real.id, '--diff'])).out) as {
      changes: unknown[]
    }
    expect(shown.changes).toEqual(dryJson.changes)

    const text = await cli([...ws, 'runs', 'show', real.id, '--diff'])
    expect(text.out).toMatch(/changes: \d+ files changed, \+\d+ −\d+; \d+ entr(y|ies) superseded/)
    expect(text.out).toMatch(
      /^notes\/memory\/MEMORY\.md {2}modified {2}\+\d+ −\d+ {2}\([0-9a-f]{10} → [0-9a-f]{10}\)$/m,
    )
    expect(text.out).not.toContain('\x1b[')

    expect(await cli([...ws, 'runs', 'apply', real.id])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/is succeeded, not held for review/),
    })
    const undo = await cli([...ws, 'runs', 'undo', real.id])
    expect(undo).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^Undid dream ${real.id}`)) })
    expect(world.snapshot()).toEqual(before)
  })

  it('review "always": runs apply writes a held run; after an edit it refuses with exit 5; discard keeps the notes', async () => {
    const world = await cliWorld({ review: 'always' })
    const ws = ['--workspace', world.dir]
    const first = JSON.parse((await cli([...ws, '--json', 'dream', '--days', '2'])).out) as {
      id: string
      status: string
      summary: string
    }
    expect(first.status).toBe('held')
    expect(first.summary).toContain('Dream ready for review')
    expect(world.read('notes/memory/MEMORY.md')).toBe(RICH_MEMORY)
    expect(await cli([...ws, 'runs', 'apply', first.id])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Applied dream/),
    })
    expect(world.read('notes/memory/MEMORY.md')).not.toBe(RICH_MEMORY)

    const db = openMessagesDb(world.paths.messagesDb)
    // A minute after the world's first messages, so on their day: an hour later may be a new day (its note one
    // that only the held run would write, so nothing on disk to edit).
    const later = new Date(Date.now() - 2 * 3_600_000 + 60_000).toISOString()
    db.insertMessages([
      {
        id: 'cli-3',
        chatJid: 'web:main',
        sender: 'user',
        senderName: 'Alex',
        content: 'We decided to ship Atlas 2.0 on Friday.',
        timestamp: later,
      },
    ])
    db.close()
    const second = JSON.parse((await cli([...ws, '--json', 'dream', '--days', '2'])).out) as {
      id: string
      status: string
    }
    expect(second.status).toBe('held')
    const changed = JSON.parse((await cli([...ws, '--json', 'runs', 'show', second.id, '--diff'])).out) as {
      changes: { path: string }[]
    }
    const target = changed.changes[0]?.path ?? ''
    world.write(target, `${world.read(target)}\nEdited by hand.\n`)
    const refused = await cli([...ws, 'runs', 'apply', second.id])
    expect(refused.code).toBe(5)
    expect(refused.err).toContain(`${target} was edited since dream ${second.id}`)
    const edited = world.snapshot()
    expect(await cli([...ws, 'runs', 'discard', second.id])).toMatchObject({
      code: 0,
      out: `Discarded dream ${second.id}; your notes stay as they were.`,
    })
    expect(world.snapshot()).toEqual(edited)
  })
})
