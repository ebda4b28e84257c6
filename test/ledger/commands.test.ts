import { describe, expect, it } from 'vitest'
import { DREAM_USAGE, parseDreamCommand } from '../../src/chat/dream-command.js'

const limits = { defaultDays: 7, maxDays: 365 }

describe('/dream apply|discard|undo parsing', () => {
  it.each([
    ['/dream apply', { kind: 'apply', id: null }],
    ['/dream APPLY run-20261121T200000000Z-abc123', { kind: 'apply', id: 'run-20261121T200000000Z-abc123' }],
    ['/dream discard', { kind: 'discard', id: null }],
    ['/dream undo', { kind: 'undo', id: null, force: false }],
    ['/dream undo --force', { kind: 'undo', id: null, force: true }],
    ['/dream undo run-1 --force', { kind: 'undo', id: 'run-1', force: true }],
    ['/dream apply --force', { kind: 'usage' }],
    ['/dream apply a b', { kind: 'usage' }],
    ['/dream undo ../../etc', { kind: 'usage' }],
  ])('%s', (text, expected) => {
    expect(parseDreamCommand(text, limits)).toEqual(expected)
  })

  it('lists the review actions in the help', () => {
    expect(DREAM_USAGE).toMatch(/\/dream apply/)
    expect(DREAM_USAGE).toMatch(/\/dream discard/)
    expect(DREAM_USAGE).toMatch(/\/dream undo/)
  })
})
