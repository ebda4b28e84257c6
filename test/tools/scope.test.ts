// The path policy on its own: normalising model paths and classifying write targets.
import { describe, expect, it } from 'vitest'
import { normalizeToolPath, readRoots, resolveWriteTarget } from '../../src/tools/scope.js'
import { makeToolWorld } from './world.js'

describe('normalizeToolPath', () => {
  it.each([
    ['notes/memory/user.md', 'notes/memory/user.md'],
    ['./notes//memory/./user.md', 'notes/memory/user.md'],
    ['notes/', 'notes'],
    ['.', ''],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normalizeToolPath(raw)).toBe(expected)
  })

  it.each([
    ['', /the path is empty/],
    ['   ', /the path is empty/],
    ['a\0b', /refused "a\\u0000b": the path contains a NUL byte/],
    ['a\tb.md', /control characters/],
    ['/abs.md', /absolute paths/],
    ['\\\\server\\share.md', /absolute paths/],
    ['D:notes.md', /absolute paths/],
    ['notes\\x.md', /separator/],
    ['notes/..', /'\.\.' escapes/],
    ['notes/.obsidian/x.md', /hidden files/],
    ['notes/.env', /hidden files/],
  ])('refuses %j', (raw, message) => {
    expect(() => normalizeToolPath(raw)).toThrow(message)
  })
})

describe('readRoots', () => {
  it('normalises configured roots and drops ones outside the workspace', () => {
    const world = makeToolWorld(
      {},
      { flags: { search: { roots: ['./notes/', 'skills', '../elsewhere', '/etc'] } } },
    )
    expect(readRoots(world.paths, world.config)).toEqual(['notes', 'skills'])
  })
})

describe('resolveWriteTarget', () => {
  it('classifies daily notes, memory files and day pages, without needing them to exist', async () => {
    const { paths, window } = makeToolWorld()
    await expect(resolveWriteTarget('notes/daily/2026-11-21.md', paths, window)).resolves.toMatchObject({
      kind: 'daily',
      day: '2026-11-21',
      rel: 'notes/daily/2026-11-21.md',
      stats: null,
    })
    await expect(resolveWriteTarget('notes/memory/MEMORY.md', paths, window)).resolves.toMatchObject({
      kind: 'memory',
    })
    await expect(resolveWriteTarget('notes/memory/days/2024-02-29.md', paths, window)).resolves.toMatchObject(
      {
        kind: 'day-page',
        day: '2024-02-29',
      },
    )
    await expect(resolveWriteTarget('notes/memory/days/2025-02-29.md', paths, window)).rejects.toThrow(
      /day pages are named/,
    )
  })
})
