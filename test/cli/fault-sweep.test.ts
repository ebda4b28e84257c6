// The fault sweep: bad input and faults, each run through the real CLI on a copy of one sample workspace.
import Database from 'better-sqlite3'
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest'
import { snapshotTree } from '../backup/fixtures.js'
import type { CliResult } from '../helpers/cli.js'
import {
  buildSampleFixture,
  copyFixture,
  expectCleanFailure,
  removeFaultWorlds,
  type FaultWorld,
} from '../helpers/faults.js'

const ENOSPC = fileURLToPath(new URL('../helpers/inject-faults.mjs', import.meta.url))

interface FaultCase {
  name: string
  prepare?: (world: FaultWorld) => void
  args: (world: FaultWorld) => string[]
  env?: (world: FaultWorld) => Record<string, string>
  code: number
  /** The case may change notes the way a finished dream does. */
  notesMayChange?: boolean
  /** The case planted a dead process's lock that the command (doctor) only reads. */
  plantedLock?: boolean
  /** The notes must then be byte-identical to a clean `dream --days 2` on an untouched copy. */
  likeCleanDream?: boolean
  stderr?: RegExp
  stdout?: RegExp
  /** Extra checks on the world after the run. */
  after?: (world: FaultWorld, expect: ExpectStatic, result: CliResult) => void
}

const dream = () => ['dream', '--days', '2']
const withDb =
  (file: (world: FaultWorld) => string, ...args: string[]) =>
  (world: FaultWorld) => ['--messages-db', file(world), ...args]
const sideFile = (name: string) => (world: FaultWorld) => join(world.dir, name)
const writeSide = (name: string, content: string | Buffer) => (world: FaultWorld) =>
  writeFileSync(join(world.dir, name), content)
const memory = (world: FaultWorld, name = '') => join(world.notes, 'memory', name)
const lockOf = (pid: number) => (world: FaultWorld) =>
  writeFileSync(
    world.lockFile,
    JSON.stringify({ pid, host: hostname(), runId: 'run-other', startedAt: new Date().toISOString() }),
  )
const configJson = (text: string) => (world: FaultWorld) =>
  writeFileSync(join(world.dataDir, 'config.json'), text)
const dailyNote = (world: FaultWorld) => {
  const name = readdirSync(join(world.notes, 'daily')).sort().at(-1)
  return join(world.notes, 'daily', name ?? 'missing.md')
}

const CASES: FaultCase[] = [
  // The messages DB is not a database.
  {
    name: 'text file as --messages-db',
    prepare: writeSide('notes.txt', 'just some text\n'.repeat(50)),
    args: withDb(sideFile('notes.txt'), ...dream()),
    code: 3,
    stderr: /not an SQLite database/,
  },
  {
    name: 'directory as --messages-db',
    prepare: (w) => mkdirSync(join(w.dir, 'folder.db')),
    args: withDb(sideFile('folder.db'), ...dream()),
    code: 3,
    stderr: /is a folder/,
  },
  {
    name: 'truncated DB as --messages-db',
    prepare: (w) => {
      writeFileSync(join(w.dir, 'cut.db'), readFileSync(w.messagesDb).subarray(0, 6000))
    },
    args: withDb(sideFile('cut.db'), ...dream()),
    code: 3,
  },
  {
    name: 'zero-byte file as --messages-db (dream)',
    prepare: writeSide('empty.db', ''),
    args: withDb(sideFile('empty.db'), ...dream()),
    code: 3,
    stderr: /empty file \(0 bytes\)/,
  },
  {
    name: 'zero-byte file as --messages-db (status)',
    prepare: writeSide('empty.db', ''),
    args: withDb(sideFile('empty.db'), 'status'),
    code: 3,
  },
  {
    name: 'missing --messages-db',
    args: withDb(sideFile('nowhere.db'), ...dream()),
    code: 4,
    stderr: /messages database not found/,
  },
  {
    name: 'SQLite DB without a messages table',
    prepare: (w) => {
      const db = new Database(join(w.dir, 'other.db'))
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)')
      db.close()
    },
    args: withDb(sideFile('other.db'), ...dream()),
    code: 3,
    stderr: /no messages table/,
  },
  {
    name: 'messages table without a content column',
    prepare: (w) => {
      const db = new Database(join(w.dir, 'odd.db'))
      db.exec('CREATE TABLE messages (id TEXT, chat_jid TEXT, timestamp TEXT)')
      db.close()
    },
    args: withDb(sideFile('odd.db'), ...dream()),
    code: 3,
    stderr: /no "content" column/,
  },
  // The workspace and its notes.
  {
    name: 'missing workspace folder',
    args: (w) => ['--workspace', join(w.dir, 'no-such-folder'), 'status'],
    code: 4,
    stderr: /does not exist/,
  },
  {
    name: 'notes/daily is a file (status)',
    prepare: (w) => {
      rmSync(join(w.notes, 'daily'), { recursive: true })
      writeFileSync(join(w.notes, 'daily'), 'not a folder\n')
    },
    args: () => ['status'],
    code: 0,
  },
  {
    name: 'notes/daily is a file (dream)',
    prepare: (w) => {
      rmSync(join(w.notes, 'daily'), { recursive: true })
      writeFileSync(join(w.notes, 'daily'), 'not a folder\n')
    },
    args: dream,
    code: 7,
  },
  {
    name: 'notes/memory is a file (dream)',
    prepare: (w) => {
      rmSync(memory(w), { recursive: true })
      writeFileSync(memory(w), 'not a folder\n')
    },
    args: dream,
    code: 7,
  },
  {
    name: 'read-only notes/memory folder',
    prepare: (w) => chmodSync(memory(w), 0o555),
    args: dream,
    code: 0,
    notesMayChange: true,
    stderr: /degraded/,
  },
  {
    name: 'read-only MEMORY.md',
    prepare: (w) => chmodSync(memory(w, 'MEMORY.md'), 0o444),
    args: dream,
    code: 0,
    notesMayChange: true,
    after: (w, expect) =>
      expect(snapshotTree(w.notes)['memory/MEMORY.md']).toBe(w.before['memory/MEMORY.md']),
  },
  {
    name: 'latin-1 memory files',
    after: (w, expect) => {
      const now = snapshotTree(w.notes)
      for (const [path, bytes] of Object.entries(w.before))
        if (path.startsWith('memory/')) expect(now[path], path).toBe(bytes)
    },
    prepare: (w) => {
      for (const name of readdirSync(memory(w)))
        writeFileSync(memory(w, name), Buffer.from('# Notes\n\n- caf\xe9 \xff\n', 'latin1'))
    },
    args: dream,
    code: 0,
    notesMayChange: true,
    stderr: /degraded/,
  },
  {
    name: 'daily note with broken front matter',
    prepare: (w) => {
      for (const day of ['daily']) mkdirSync(join(w.notes, day), { recursive: true })
      const today = new Date().toISOString().slice(0, 10)
      writeFileSync(join(w.notes, 'daily', `${today}.md`), '---\ndate: [unclosed\n---\n# broken\n')
    },
    args: dream,
    code: 0,
    notesMayChange: true,
  },
  {
    name: 'a message with a NUL byte',
    prepare: (w) => {
      const db = new Database(w.messagesDb)
      const row = db.prepare('SELECT chat_jid AS chat FROM messages ORDER BY timestamp DESC').get() as {
        chat: string
      }
      db.prepare(
        "INSERT INTO messages (id, chat_jid, sender, content, timestamp) VALUES ('nul', ?, 'u', ?, ?)",
      ).run(row.chat, 'I prefer tea\0 over coffee', new Date(Date.now() - 3_600_000).toISOString())
      db.close()
    },
    args: dream,
    code: 0,
    notesMayChange: true,
    stderr: /succeeded/,
  },
  {
    name: 'messages with epoch-number timestamps are reported, and seed progress never overshoots',
    prepare: (w) => {
      const db = new Database(w.messagesDb)
      const insert = db.prepare(
        "INSERT INTO messages (id, chat_jid, sender, content, timestamp) VALUES (?, 'web:main', 'u', 'hi', ?)",
      )
      insert.run('epoch-s', Math.floor(Date.now() / 1000))
      insert.run('epoch-ms', String(Date.now()))
      db.close()
    },
    args: () => ['seed', '--days', '3'],
    code: 0,
    notesMayChange: true,
    stdout: /warning: 2 message\(s\) in .* have a timestamp that is not ISO 8601/,
    after: (_w, expect, result) => {
      const steps = [...result.stderr.matchAll(/\[(\d+)\/(\d+)\]/g)].map((m) => [Number(m[1]), Number(m[2])])
      expect(steps.length).toBeGreaterThan(0)
      for (const [done, total] of steps) expect(done).toBeLessThanOrEqual(total as number)
    },
  },
  // Config and usage.
  {
    name: 'config.json that is not JSON',
    prepare: configJson('{ "backups": '),
    args: () => ['status'],
    code: 3,
  },
  {
    name: 'config.json with bad values',
    prepare: configJson('{"backups": {"keep": 0}}'),
    args: dream,
    code: 3,
    stderr: /backups\.keep/,
  },
  {
    name: 'config.json is a folder',
    prepare: (w) => mkdirSync(join(w.dataDir, 'config.json')),
    args: () => ['status'],
    code: 3,
  },
  { name: 'unknown time zone', args: () => ['--tz', 'Mars/Olympus', 'status'], code: 3 },
  { name: '--days 0', args: () => ['dream', '--days', '0'], code: 2 },
  { name: 'unknown command', args: () => ['dreem'], code: 2 },
  {
    name: 'usage error with --json',
    args: () => ['--json', 'dream', '--days', 'lots'],
    code: 2,
    stdout: /"code": ?"USAGE"/,
  },
  { name: 'runs show of an unknown run', args: () => ['runs', 'show', 'run-nope'], code: 4 },
  { name: 'restore of an unknown backup', args: () => ['backups', 'restore', 'nope'], code: 4 },
  // State and locks.
  {
    name: 'state.db that is garbage',
    prepare: (w) => writeFileSync(join(w.dataDir, 'state.db'), 'garbage '.repeat(600)),
    args: () => ['status'],
    code: 6,
    stderr: /move it aside/,
  },
  {
    name: 'dream.lock held by a live process',
    prepare: lockOf(process.pid),
    args: dream,
    code: 5,
    stderr: /already running: run run-other/,
  },
  {
    name: 'dream.lock left by a dead process',
    prepare: lockOf(2 ** 22 + 7),
    args: dream,
    code: 0,
    notesMayChange: true,
    likeCleanDream: true,
  },
  {
    name: 'dream.lock that is garbage',
    prepare: (w) => writeFileSync(w.lockFile, '{not json'),
    args: dream,
    code: 0,
    notesMayChange: true,
    likeCleanDream: true,
  },
  {
    name: 'backups folder is a file',
    prepare: (w) => writeFileSync(join(w.dataDir, 'backups'), 'not a folder'),
    args: dream,
    code: 7,
  },
  // Disk full (ENOSPC injected at the fs layer).
  {
    name: 'disk full under notes/',
    args: dream,
    stderr: /disk is full/,
    env: (w) => ({ NODE_OPTIONS: `--import=${ENOSPC}`, DREAMLANE_TEST_ENOSPC: join(w.dir, 'notes') }),
    code: 7,
  },
  {
    name: 'disk full under backups/',
    args: dream,
    env: () => ({ NODE_OPTIONS: `--import=${ENOSPC}`, DREAMLANE_TEST_ENOSPC: 'backups' }),
    code: 7,
    stderr: /disk is full/,
  },
  {
    name: 'disk full for the lock file',
    args: dream,
    env: () => ({ NODE_OPTIONS: `--import=${ENOSPC}`, DREAMLANE_TEST_ENOSPC: 'dream.lock' }),
    code: 7,
    stderr: /disk is full/,
  },
  {
    name: 'temp files a killed restore left (dead writer pid) are removed by the next dream',
    prepare: (w) => {
      writeFileSync(memory(w, `.user.md.${2 ** 22 + 7}.deadbeef.tmp`), 'half a note')
      writeFileSync(join(w.notes, 'daily', `.x.md.${2 ** 22 + 7}.0badf00d.tmp`), 'half a day')
    },
    args: dream,
    code: 0,
    notesMayChange: true,
    likeCleanDream: true,
    after: (w, expect) => {
      expect(readdirSync(memory(w)).filter((name) => name.endsWith('.tmp'))).toEqual([])
      expect(readdirSync(join(w.notes, 'daily')).filter((name) => name.endsWith('.tmp'))).toEqual([])
    },
  },
  {
    name: 'doctor names a leftover temp file and how to remove it',
    prepare: (w) => writeFileSync(memory(w, `.user.md.${2 ** 22 + 7}.deadbeef.tmp`), 'half'),
    args: () => ['doctor'],
    code: 0,
    stdout: /temp file left by an interrupted write[\s\S]*fix: rm /,
  },
  // doctor: healthy is 0; each problem is named with its fix, exit 9.
  { name: 'doctor on a healthy workspace', args: () => ['doctor'], code: 0, stdout: /healthy/ },
  {
    name: 'doctor: notes/daily is a file, a latin-1 note, a zero-byte messages DB',
    prepare: (w) => {
      rmSync(join(w.notes, 'daily'), { recursive: true })
      writeFileSync(join(w.notes, 'daily'), 'not a folder\n')
      writeFileSync(memory(w, 'user.md'), Buffer.from('caf\xe9\n', 'latin1'))
      writeFileSync(w.messagesDb, '')
    },
    args: () => ['doctor'],
    code: 9,
    stdout: /notes\/daily is a file[\s\S]*fix: [\s\S]*empty file \(0 bytes\)/,
  },
  {
    name: 'doctor names a restore that a kill -9 interrupted, and how to finish it',
    prepare: (w) =>
      writeFileSync(
        w.lockFile,
        JSON.stringify({
          pid: 2 ** 22 + 7,
          host: hostname(),
          runId: 'restore-20261120T010000Z-auto-web_main',
          startedAt: new Date().toISOString(),
        }),
      ),
    args: () => ['doctor'],
    code: 9,
    plantedLock: true,
    stdout:
      /restore of backup 20261120T010000Z-auto-web_main was interrupted[\s\S]*fix: run `dreamlane backups restore/,
  },
  {
    name: 'doctor warns about a deprecated model (healthy otherwise)',
    args: () => ['doctor'],
    env: () => ({ ANTHROPIC_API_KEY: 'sk-test', DREAMLANE_DREAM_MODEL: 'claude-sonnet-4-5' }),
    code: 0,
    stdout: /! model claude-sonnet-4-5 is deprecated and reaches end of life on November 30th, 2026/,
  },
  {
    name: 'doctor --json with a read-only notes/memory',
    prepare: (w) => chmodSync(memory(w), 0o555),
    args: () => ['--json', 'doctor'],
    code: 9,
    stdout: /"healthy": false[\s\S]*read-only[\s\S]*chmod u\+w/,
  },
  {
    name: 'a truncated daily note',
    prepare: (w) => truncateSync(dailyNote(w), 10),
    args: dream,
    code: 0,
    notesMayChange: true,
  },
]

let fixture = ''
let cleanDream: Record<string, string> = {}
beforeAll(async () => {
  fixture = await buildSampleFixture()
  // What a finished dream makes of the fixture: the yardstick for cases that end in a normal dream.
  const world = copyFixture(fixture, undefined, { keepUntilAll: true })
  const result = await world.cli(dream())
  if (result.code !== 0) throw new Error(`reference dream failed: ${result.stderr}`)
  cleanDream = snapshotTree(world.notes)
}, 60_000)
afterAll(() => {
  removeFaultWorlds()
  rmSync(fixture, { recursive: true, force: true })
})

describe.concurrent('fault sweep', () => {
  it.for(CASES)('$name → exit $code', async (fault, { expect }) => {
    const world = { ...copyFixture(fixture, fault.prepare, { keepUntilAll: true }), expect }
    const result = await world.cli(fault.args(world), fault.env?.(world))
    // Permissions back, so the checks (and the clean-up) can read everything.
    chmodSync(join(world.notes, 'memory'), 0o755)
    expectCleanFailure(world, result, {
      code: fault.code,
      notesMayChange: fault.notesMayChange,
      plantedLock: fault.plantedLock,
    })
    if (fault.stderr) expect(result.stderr).toMatch(fault.stderr)
    if (fault.stdout) expect(result.stdout).toMatch(fault.stdout)
    fault.after?.(world, expect, result)
    if (fault.likeCleanDream) expect(snapshotTree(world.notes)).toEqual(cleanDream)
  })
  it('has at least 30 cases', () => {
    if (CASES.length < 30) throw new Error(`only ${CASES.length} cases`)
  })
})
