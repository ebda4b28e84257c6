// The security boundary: every refused attempt names its reason, and nothing on disk or in the DB changes.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createToolSet } from '../../src/tools/tool-set.js'
import { makeTempDir } from '../helpers/workspace.js'
import { dailyNote, makeToolWorld, snapshotTree } from './world.js'

const MAX_WRITE_BYTES = 4096

function attackWorld() {
  const outside = makeTempDir('dreamlane-outside-')
  writeFileSync(join(outside, 'secret.md'), 'outside secret\n')
  mkdirSync(join(outside, 'days'))
  const world = makeToolWorld(
    {
      'notes/memory/MEMORY.md': '# Memory\n- [user](user.md)\n',
      'notes/memory/user.md': '# User\n- likes tea\n- x marks the spot\n',
      'notes/memory/recent-context.md': '# Recent\n',
      'notes/memory/index.json': '{"sidecar": true}\n',
      'notes/daily/2026-11-22.md': dailyNote('2026-11-22'),
      'notes/daily/2026-10-01.md': dailyNote('2026-10-01', 'An old day.'),
      'skills/dream/SKILL.md': '# Dream skill\n',
      'README.md': '# Workspace\n',
      'package.md': 'not under a search root\n',
      '.dreamlane/config.json': '{}\n',
    },
    {
      flags: { tools: { maxWriteBytes: MAX_WRITE_BYTES } },
      messages: [
        { chatJid: 'chat:a', content: 'hello from the window', timestamp: '2026-11-22T10:00:00.000Z' },
        { chatJid: 'dream:manual:chat:a:1', content: 'dream scratch', timestamp: '2026-11-22T11:00:00.000Z' },
      ],
    },
  )
  const { dir } = world
  // Symlinks leading out of the workspace, into forbidden files, and nowhere.
  symlinkSync(join(outside, 'secret.md'), join(dir, 'notes/memory/project.md'))
  symlinkSync(join(outside, 'days'), join(dir, 'notes/memory/days'))
  symlinkSync(join(dir, '.dreamlane/config.json'), join(dir, 'notes/memory/reference.md'))
  symlinkSync('../daily/2026-10-01.md', join(dir, 'notes/memory/feedback.md'))
  symlinkSync('/nonexistent/dreamlane/target.md', join(dir, 'notes/memory/current-state.md'))
  symlinkSync('../.dreamlane', join(dir, 'notes/links'))
  symlinkSync(outside, join(dir, 'notes/outside'))
  // An in-window daily note name that is a folder, not a file.
  mkdirSync(join(dir, 'notes/daily/2026-11-21.md'))
  return { ...world, outside }
}

type World = ReturnType<typeof attackWorld>

/** [what is tried, tool, input (or a function of the world), expected code, expected message]. */
type Attack = [name: string, tool: string, input: unknown, code: string, message: RegExp]

const brokenFrontMatter = dailyNote('2026-11-23').replace(/^summarised_until: .*\n/m, '')

const attacks: Attack[] = [
  // `..` escapes
  [
    'write traversal out of the workspace',
    'write_file',
    { path: '../outside.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /'\.\.' escapes are not allowed/,
  ],
  [
    'write traversal hidden mid-path',
    'write_file',
    { path: 'notes/memory/../../../etc/cron.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /'\.\.' escapes/,
  ],
  [
    'write traversal that lands back inside',
    'write_file',
    { path: 'notes/daily/../memory/user.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /'\.\.' escapes/,
  ],
  ['read traversal', 'read_file', { path: 'notes/../../secret.md' }, 'PATH_OUT_OF_SCOPE', /'\.\.' escapes/],
  ['list traversal', 'list_files', { path: '..' }, 'PATH_OUT_OF_SCOPE', /'\.\.' escapes/],
  [
    'grep traversal',
    'grep_notes',
    { pattern: 'secret', path: 'notes/../..' },
    'PATH_OUT_OF_SCOPE',
    /'\.\.' escapes/,
  ],
  [
    'backslash traversal',
    'write_file',
    { path: 'notes\\..\\..\\x.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /use '\/' as the separator/,
  ],
  // absolute paths
  [
    'write absolute path into the workspace',
    'write_file',
    (w: World) => ({ path: join(w.dir, 'notes/memory/user.md'), content: 'x' }),
    'PATH_OUT_OF_SCOPE',
    /absolute paths are not allowed/,
  ],
  [
    'read absolute system file',
    'read_file',
    { path: '/etc/hostname' },
    'PATH_OUT_OF_SCOPE',
    /absolute paths are not allowed/,
  ],
  [
    'write windows drive path',
    'write_file',
    { path: 'C:/notes/memory/user.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /absolute paths are not allowed/,
  ],
  [
    'write home-relative path',
    'write_file',
    { path: '~/notes/memory/user.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /absolute paths are not allowed/,
  ],
  ['list absolute root', 'list_files', { path: '/' }, 'PATH_OUT_OF_SCOPE', /absolute paths are not allowed/],
  // NUL bytes and control characters
  [
    'write with NUL byte in the path',
    'write_file',
    { path: 'notes/memory/user.md\0.txt', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /contains a NUL byte/,
  ],
  [
    'read with NUL byte in the path',
    'read_file',
    { path: 'notes/memory/user.md\0' },
    'PATH_OUT_OF_SCOPE',
    /contains a NUL byte/,
  ],
  [
    'write with a newline in the path',
    'write_file',
    { path: 'notes/memory/user.md\n', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /control characters/,
  ],
  [
    'write NUL bytes as content',
    'write_file',
    { path: 'notes/memory/user.md', content: 'a\0b' },
    'TOOL_INPUT_INVALID',
    /no NUL bytes/,
  ],
  // symlinks
  [
    'write through a file symlink leading outside',
    'write_file',
    { path: 'notes/memory/project.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /symlink in the path leads outside the workspace/,
  ],
  [
    'write through a folder symlink leading outside',
    'write_file',
    { path: 'notes/memory/days/2026-11-20.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /symlink in the path leads outside the workspace/,
  ],
  [
    'read through a symlink leading outside',
    'read_file',
    { path: 'notes/memory/project.md' },
    'PATH_OUT_OF_SCOPE',
    /leads outside the workspace/,
  ],
  [
    'read through a folder symlink leading outside',
    'read_file',
    { path: 'notes/outside/secret.md' },
    'PATH_OUT_OF_SCOPE',
    /leads outside the workspace/,
  ],
  [
    'list a folder symlink leading outside',
    'list_files',
    { path: 'notes/outside' },
    'PATH_OUT_OF_SCOPE',
    /leads outside the workspace/,
  ],
  [
    'write through a symlink into a hidden config file',
    'write_file',
    { path: 'notes/memory/reference.md', content: '{}' },
    'PATH_OUT_OF_SCOPE',
    /leads to \.dreamlane\/config\.json; writing through symlinks is refused/,
  ],
  [
    'read through a symlink into a hidden config file',
    'read_file',
    { path: 'notes/memory/reference.md' },
    'PATH_OUT_OF_SCOPE',
    /leads to a forbidden file \(\.dreamlane\/config\.json\)/,
  ],
  [
    'list a folder symlink into the data dir',
    'list_files',
    { path: 'notes/links' },
    'PATH_OUT_OF_SCOPE',
    /leads to a forbidden file \(\.dreamlane\)/,
  ],
  [
    'write through a symlink into an out-of-window daily note',
    'write_file',
    { path: 'notes/memory/feedback.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /leads to notes\/daily\/2026-10-01\.md; writing through symlinks/,
  ],
  [
    'edit through a symlink into an out-of-window daily note',
    'edit_file',
    { path: 'notes/memory/feedback.md', old_string: 'An old day.', new_string: 'Rewritten.' },
    'PATH_OUT_OF_SCOPE',
    /writing through symlinks is refused/,
  ],
  [
    'write through a dangling symlink',
    'write_file',
    { path: 'notes/memory/current-state.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /symlink in the path points nowhere/,
  ],
  // file types and hidden files
  [
    'write a .json sidecar next to a daily note',
    'write_file',
    { path: 'notes/daily/2026-11-22.json', content: '{}' },
    'PATH_OUT_OF_SCOPE',
    /not \.md: .*no JSON sidecars/,
  ],
  [
    'overwrite a .json file in memory',
    'write_file',
    { path: 'notes/memory/index.json', content: '{}' },
    'PATH_OUT_OF_SCOPE',
    /not \.md/,
  ],
  [
    'read a .json sidecar',
    'read_file',
    { path: 'notes/memory/index.json' },
    'PATH_OUT_OF_SCOPE',
    /not a text note \(readable: \.md, \.txt\)/,
  ],
  [
    'write a hidden note',
    'write_file',
    { path: 'notes/memory/.hidden.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /hidden files and folders/,
  ],
  [
    'read the hidden data dir',
    'read_file',
    { path: '.dreamlane/config.json' },
    'PATH_OUT_OF_SCOPE',
    /hidden files and folders/,
  ],
  [
    'write into a hidden folder',
    'write_file',
    { path: 'notes/.git/MEMORY.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /hidden files and folders/,
  ],
  [
    'write over a folder named like a daily note',
    'write_file',
    { path: 'notes/daily/2026-11-21.md', content: dailyNote('2026-11-21') },
    'PATH_OUT_OF_SCOPE',
    /not a regular file/,
  ],
  // writable targets
  [
    'write an out-of-window daily note',
    'write_file',
    { path: 'notes/daily/2026-10-01.md', content: dailyNote('2026-10-01', 'x') },
    'PATH_OUT_OF_SCOPE',
    /outside the window: only daily notes of 2026-11-21 … 2026-11-23/,
  ],
  [
    'write a future daily note',
    'write_file',
    { path: 'notes/daily/2026-12-01.md', content: dailyNote('2026-12-01') },
    'PATH_OUT_OF_SCOPE',
    /outside the window/,
  ],
  [
    'edit an out-of-window daily note',
    'edit_file',
    { path: 'notes/daily/2026-10-01.md', old_string: 'An old day.', new_string: 'x' },
    'PATH_OUT_OF_SCOPE',
    /outside the window/,
  ],
  [
    'write a badly named daily note',
    'write_file',
    { path: 'notes/daily/today.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /daily notes are named notes\/daily\/YYYY-MM-DD\.md/,
  ],
  [
    'write an invented memory file',
    'write_file',
    { path: 'notes/memory/secrets.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /not a memory file/,
  ],
  [
    'write a day page for an impossible date',
    'write_file',
    { path: 'notes/memory/days/2026-02-30.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /day pages are named/,
  ],
  [
    'overwrite the dream skill',
    'write_file',
    { path: 'skills/dream/SKILL.md', content: 'obey me' },
    'PATH_OUT_OF_SCOPE',
    /not a writable note/,
  ],
  [
    'write at the workspace root',
    'write_file',
    { path: 'README.md', content: 'x' },
    'PATH_OUT_OF_SCOPE',
    /not a writable note/,
  ],
  [
    'read outside the search roots',
    'read_file',
    { path: 'package.md' },
    'PATH_OUT_OF_SCOPE',
    /outside the readable folders \(notes, skills\)/,
  ],
  // content
  [
    'oversized write',
    'write_file',
    { path: 'notes/memory/user.md', content: 'x'.repeat(MAX_WRITE_BYTES + 1) },
    'CONTENT_TOO_LARGE',
    /4097 bytes is over the 4096-byte limit/,
  ],
  [
    'oversized multi-byte write',
    'write_file',
    { path: 'notes/memory/MEMORY.md', content: 'é'.repeat(MAX_WRITE_BYTES / 2 + 1) },
    'CONTENT_TOO_LARGE',
    /4098 bytes/,
  ],
  [
    'edit that grows a note past the limit',
    'edit_file',
    { path: 'notes/memory/user.md', old_string: 'x marks', new_string: 'y'.repeat(MAX_WRITE_BYTES) },
    'CONTENT_TOO_LARGE',
    /over the 4096-byte limit/,
  ],
  [
    'daily note without front matter',
    'write_file',
    { path: 'notes/daily/2026-11-23.md', content: '# Just a summary\n' },
    'DAILY_NOTE_INVALID',
    /does not start with a "---" front matter block/,
  ],
  [
    'daily note missing summarised_until',
    'write_file',
    { path: 'notes/daily/2026-11-23.md', content: brokenFrontMatter },
    'DAILY_NOTE_INVALID',
    /missing "summarised_until"/,
  ],
  [
    'daily note for another date',
    'write_file',
    { path: 'notes/daily/2026-11-23.md', content: dailyNote('2026-11-22') },
    'DAILY_NOTE_INVALID',
    /date is '2026-11-22' but this note is for '2026-11-23'/,
  ],
  [
    'edit that deletes a front matter key',
    'edit_file',
    { path: 'notes/daily/2026-11-22.md', old_string: 'messages_total: 2\n', new_string: '' },
    'DAILY_NOTE_INVALID',
    /missing "messages_total"/,
  ],
  // messages
  [
    'delete messages',
    'delete_messages',
    { chat: 'chat:a' },
    'UNKNOWN_TOOL',
    /no tool "delete_messages"; available tools: read_file, write_file/,
  ],
  ['move a message', 'move_message', { id: 'm1', to: 'chat:b' }, 'UNKNOWN_TOOL', /no tool "move_message"/],
  [
    'post a message',
    'send_message',
    { chat: 'chat:a', text: 'hi' },
    'UNKNOWN_TOOL',
    /no tool "send_message"/,
  ],
  [
    'read the dream channel',
    'get_messages',
    { chat: 'dream:manual:chat:a:1' },
    'MESSAGES_OUT_OF_SCOPE',
    /dream channels are never readable/,
  ],
  [
    'search the dream channel',
    'search_messages',
    { query: 'scratch', chat: 'dream:manual:chat:a:1' },
    'MESSAGES_OUT_OF_SCOPE',
    /dream channel/,
  ],
  [
    'read messages of a day outside the window',
    'get_messages',
    { day: '2026-10-01' },
    'MESSAGES_OUT_OF_SCOPE',
    /day 2026-10-01 is outside the window \(2026-11-21 … 2026-11-23, UTC\)/,
  ],
  [
    'smuggle an extra option into write_file',
    'write_file',
    { path: 'notes/memory/user.md', content: 'x', mode: 'append' },
    'TOOL_INPUT_INVALID',
    /Unrecognized key: "mode"/,
  ],
]

describe('tool boundary', () => {
  it('has at least 30 refused attempts', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(30)
  })

  it.each(attacks)('refuses: %s', async (_name, tool, input, code, message) => {
    const world = attackWorld()
    const tools = createToolSet(world.context)
    const before = { inside: snapshotTree(world.dir), outside: snapshotTree(world.outside) }
    const countMessages = world.messages.db.prepare('SELECT count(*) AS n FROM messages')
    const messagesBefore = countMessages.get()

    const result = await tools.call(tool, typeof input === 'function' ? input(world) : input)

    expect(result).toMatchObject({ ok: false, code })
    expect(result.content).toMatch(message)
    expect(snapshotTree(world.dir)).toEqual(before.inside)
    expect(snapshotTree(world.outside)).toEqual(before.outside)
    expect(countMessages.get()).toEqual(messagesBefore)
    expect(tools.changedFiles()).toEqual([])
    expect(tools.calls()).toMatchObject([{ name: tool, ok: false, code }])
  })
})
