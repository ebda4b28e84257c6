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

interface Attack {
  name: string
  tool: string
  input: (world: World) => unknown
  code: string
  message: RegExp
}

const brokenFrontMatter = dailyNote('2026-11-23').replace(/^summarised_until: .*\n/m, '')

const attacks: Attack[] = [
  // `..` escapes
  { name: 'write traversal out of the workspace', tool: 'write_file', input: () => ({ path: '../outside.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes are not allowed/ },
  { name: 'write traversal hidden mid-path', tool: 'write_file', input: () => ({ path: 'notes/memory/../../../etc/cron.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes/ },
  { name: 'write traversal that lands back inside', tool: 'write_file', input: () => ({ path: 'notes/daily/../memory/user.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes/ },
  { name: 'read traversal', tool: 'read_file', input: () => ({ path: 'notes/../../secret.md' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes/ },
  { name: 'list traversal', tool: 'list_files', input: () => ({ path: '..' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes/ },
  { name: 'grep traversal', tool: 'grep_notes', input: () => ({ pattern: 'secret', path: 'notes/../..' }), code: 'PATH_OUT_OF_SCOPE', message: /'\.\.' escapes/ },
  { name: 'backslash traversal', tool: 'write_file', input: () => ({ path: 'notes\\..\\..\\x.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /use '\/' as the separator/ },
  // absolute paths
  { name: 'write absolute path into the workspace', tool: 'write_file', input: (w) => ({ path: join(w.dir, 'notes/memory/user.md'), content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /absolute paths are not allowed/ },
  { name: 'read absolute system file', tool: 'read_file', input: () => ({ path: '/etc/hostname' }), code: 'PATH_OUT_OF_SCOPE', message: /absolute paths are not allowed/ },
  { name: 'write windows drive path', tool: 'write_file', input: () => ({ path: 'C:/notes/memory/user.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /absolute paths are not allowed/ },
  { name: 'write home-relative path', tool: 'write_file', input: () => ({ path: '~/notes/memory/user.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /absolute paths are not allowed/ },
  { name: 'list absolute root', tool: 'list_files', input: () => ({ path: '/' }), code: 'PATH_OUT_OF_SCOPE', message: /absolute paths are not allowed/ },
  // NUL bytes and control characters
  { name: 'write with NUL byte in the path', tool: 'write_file', input: () => ({ path: 'notes/memory/user.md\0.txt', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /contains a NUL byte/ },
  { name: 'read with NUL byte in the path', tool: 'read_file', input: () => ({ path: 'notes/memory/user.md\0' }), code: 'PATH_OUT_OF_SCOPE', message: /contains a NUL byte/ },
  { name: 'write with a newline in the path', tool: 'write_file', input: () => ({ path: 'notes/memory/user.md\n', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /control characters/ },
  { name: 'write NUL bytes as content', tool: 'write_file', input: () => ({ path: 'notes/memory/user.md', content: 'a\0b' }), code: 'TOOL_INPUT_INVALID', message: /no NUL bytes/ },
  // symlinks
  { name: 'write through a file symlink leading outside', tool: 'write_file', input: () => ({ path: 'notes/memory/project.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /symlink in the path leads outside the workspace/ },
  { name: 'write through a folder symlink leading outside', tool: 'write_file', input: () => ({ path: 'notes/memory/days/2026-11-20.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /symlink in the path leads outside the workspace/ },
  { name: 'read through a symlink leading outside', tool: 'read_file', input: () => ({ path: 'notes/memory/project.md' }), code: 'PATH_OUT_OF_SCOPE', message: /leads outside the workspace/ },
  { name: 'read through a folder symlink leading outside', tool: 'read_file', input: () => ({ path: 'notes/outside/secret.md' }), code: 'PATH_OUT_OF_SCOPE', message: /leads outside the workspace/ },
  { name: 'list a folder symlink leading outside', tool: 'list_files', input: () => ({ path: 'notes/outside' }), code: 'PATH_OUT_OF_SCOPE', message: /leads outside the workspace/ },
  { name: 'write through a symlink into a hidden config file', tool: 'write_file', input: () => ({ path: 'notes/memory/reference.md', content: '{}' }), code: 'PATH_OUT_OF_SCOPE', message: /leads to \.dreamlane\/config\.json; writing through symlinks is refused/ },
  { name: 'read through a symlink into a hidden config file', tool: 'read_file', input: () => ({ path: 'notes/memory/reference.md' }), code: 'PATH_OUT_OF_SCOPE', message: /leads to a forbidden file \(\.dreamlane\/config\.json\)/ },
  { name: 'list a folder symlink into the data dir', tool: 'list_files', input: () => ({ path: 'notes/links' }), code: 'PATH_OUT_OF_SCOPE', message: /leads to a forbidden file \(\.dreamlane\)/ },
  { name: 'write through a symlink into an out-of-window daily note', tool: 'write_file', input: () => ({ path: 'notes/memory/feedback.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /leads to notes\/daily\/2026-10-01\.md; writing through symlinks/ },
  { name: 'edit through a symlink into an out-of-window daily note', tool: 'edit_file', input: () => ({ path: 'notes/memory/feedback.md', old_string: 'An old day.', new_string: 'Rewritten.' }), code: 'PATH_OUT_OF_SCOPE', message: /writing through symlinks is refused/ },
  { name: 'write through a dangling symlink', tool: 'write_file', input: () => ({ path: 'notes/memory/current-state.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /symlink in the path points nowhere/ },
  // file types and hidden files
  { name: 'write a .json sidecar next to a daily note', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-11-22.json', content: '{}' }), code: 'PATH_OUT_OF_SCOPE', message: /not \.md: .*no JSON sidecars/ },
  { name: 'overwrite a .json file in memory', tool: 'write_file', input: () => ({ path: 'notes/memory/index.json', content: '{}' }), code: 'PATH_OUT_OF_SCOPE', message: /not \.md/ },
  { name: 'read a .json sidecar', tool: 'read_file', input: () => ({ path: 'notes/memory/index.json' }), code: 'PATH_OUT_OF_SCOPE', message: /not a text note \(readable: \.md, \.txt\)/ },
  { name: 'write a hidden note', tool: 'write_file', input: () => ({ path: 'notes/memory/.hidden.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /hidden files and folders/ },
  { name: 'read the hidden data dir', tool: 'read_file', input: () => ({ path: '.dreamlane/config.json' }), code: 'PATH_OUT_OF_SCOPE', message: /hidden files and folders/ },
  { name: 'write into a hidden folder', tool: 'write_file', input: () => ({ path: 'notes/.git/MEMORY.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /hidden files and folders/ },
  { name: 'write over a folder named like a daily note', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-11-21.md', content: dailyNote('2026-11-21') }), code: 'PATH_OUT_OF_SCOPE', message: /not a regular file/ },
  // writable targets
  { name: 'write an out-of-window daily note', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-10-01.md', content: dailyNote('2026-10-01', 'x') }), code: 'PATH_OUT_OF_SCOPE', message: /outside the window: only daily notes of 2026-11-21 … 2026-11-23/ },
  { name: 'write a future daily note', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-12-01.md', content: dailyNote('2026-12-01') }), code: 'PATH_OUT_OF_SCOPE', message: /outside the window/ },
  { name: 'edit an out-of-window daily note', tool: 'edit_file', input: () => ({ path: 'notes/daily/2026-10-01.md', old_string: 'An old day.', new_string: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /outside the window/ },
  { name: 'write a badly named daily note', tool: 'write_file', input: () => ({ path: 'notes/daily/today.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /daily notes are named notes\/daily\/YYYY-MM-DD\.md/ },
  { name: 'write an invented memory file', tool: 'write_file', input: () => ({ path: 'notes/memory/secrets.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /not a memory file/ },
  { name: 'write a day page for an impossible date', tool: 'write_file', input: () => ({ path: 'notes/memory/days/2026-02-30.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /day pages are named/ },
  { name: 'overwrite the dream skill', tool: 'write_file', input: () => ({ path: 'skills/dream/SKILL.md', content: 'obey me' }), code: 'PATH_OUT_OF_SCOPE', message: /not a writable note/ },
  { name: 'write at the workspace root', tool: 'write_file', input: () => ({ path: 'README.md', content: 'x' }), code: 'PATH_OUT_OF_SCOPE', message: /not a writable note/ },
  { name: 'read outside the search roots', tool: 'read_file', input: () => ({ path: 'package.md' }), code: 'PATH_OUT_OF_SCOPE', message: /outside the readable folders \(notes, skills\)/ },
  // content
  { name: 'oversized write', tool: 'write_file', input: () => ({ path: 'notes/memory/user.md', content: 'x'.repeat(MAX_WRITE_BYTES + 1) }), code: 'CONTENT_TOO_LARGE', message: /4097 bytes is over the 4096-byte limit/ },
  { name: 'oversized multi-byte write', tool: 'write_file', input: () => ({ path: 'notes/memory/MEMORY.md', content: 'é'.repeat(MAX_WRITE_BYTES / 2 + 1) }), code: 'CONTENT_TOO_LARGE', message: /4098 bytes/ },
  { name: 'edit that grows a note past the limit', tool: 'edit_file', input: () => ({ path: 'notes/memory/user.md', old_string: 'x marks', new_string: 'y'.repeat(MAX_WRITE_BYTES) }), code: 'CONTENT_TOO_LARGE', message: /over the 4096-byte limit/ },
  { name: 'daily note without front matter', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-11-23.md', content: '# Just a summary\n' }), code: 'DAILY_NOTE_INVALID', message: /does not start with a "---" front matter block/ },
  { name: 'daily note missing summarised_until', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-11-23.md', content: brokenFrontMatter }), code: 'DAILY_NOTE_INVALID', message: /missing "summarised_until"/ },
  { name: 'daily note for another date', tool: 'write_file', input: () => ({ path: 'notes/daily/2026-11-23.md', content: dailyNote('2026-11-22') }), code: 'DAILY_NOTE_INVALID', message: /date is '2026-11-22' but this note is for '2026-11-23'/ },
  { name: 'edit that deletes a front matter key', tool: 'edit_file', input: () => ({ path: 'notes/daily/2026-11-22.md', old_string: 'messages_total: 2\n', new_string: '' }), code: 'DAILY_NOTE_INVALID', message: /missing "messages_total"/ },
  // messages
  { name: 'delete messages', tool: 'delete_messages', input: () => ({ chat: 'chat:a' }), code: 'UNKNOWN_TOOL', message: /no tool "delete_messages"; available tools: read_file, write_file/ },
  { name: 'move a message', tool: 'move_message', input: () => ({ id: 'm1', to: 'chat:b' }), code: 'UNKNOWN_TOOL', message: /no tool "move_message"/ },
  { name: 'post a message', tool: 'send_message', input: () => ({ chat: 'chat:a', text: 'hi' }), code: 'UNKNOWN_TOOL', message: /no tool "send_message"/ },
  { name: 'read the dream channel', tool: 'get_messages', input: () => ({ chat: 'dream:manual:chat:a:1' }), code: 'MESSAGES_OUT_OF_SCOPE', message: /dream channels are never readable/ },
  { name: 'search the dream channel', tool: 'search_messages', input: () => ({ query: 'scratch', chat: 'dream:manual:chat:a:1' }), code: 'MESSAGES_OUT_OF_SCOPE', message: /dream channel/ },
  { name: 'read messages of a day outside the window', tool: 'get_messages', input: () => ({ day: '2026-10-01' }), code: 'MESSAGES_OUT_OF_SCOPE', message: /day 2026-10-01 is outside the window \(2026-11-21 … 2026-11-23, UTC\)/ },
  { name: 'smuggle an extra option into write_file', tool: 'write_file', input: () => ({ path: 'notes/memory/user.md', content: 'x', mode: 'append' }), code: 'TOOL_INPUT_INVALID', message: /Unrecognized key: "mode"/ },
]

describe('tool boundary', () => {
  it('has at least 30 refused attempts', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(30)
  })

  it.each(attacks)('refuses: $name', async (attack) => {
    const world = attackWorld()
    const tools = createToolSet(world.context)
    const before = { inside: snapshotTree(world.dir), outside: snapshotTree(world.outside) }
    const messagesBefore = world.messages.db.prepare('SELECT count(*) AS n FROM messages').get()

    const result = await tools.call(attack.tool, attack.input(world))

    expect(result).toMatchObject({ ok: false, code: attack.code })
    expect(result.content).toMatch(attack.message)
    expect(snapshotTree(world.dir)).toEqual(before.inside)
    expect(snapshotTree(world.outside)).toEqual(before.outside)
    expect(world.messages.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual(messagesBefore)
    expect(tools.changedFiles()).toEqual([])
    expect(tools.calls()).toMatchObject([{ name: attack.tool, ok: false, code: attack.code }])
  })
})
