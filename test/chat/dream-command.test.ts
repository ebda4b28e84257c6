import { describe, expect, it } from 'vitest'
import { DREAM_USAGE, parseDreamCommand, queuedReply } from '../../src/chat/dream-command.js'

const limits = { defaultDays: 7, maxDays: 365 }

describe('/dream parsing', () => {
  it.each([
    ['/dream', { kind: 'dream', days: 7, clamped: false }],
    ['/dream 30', { kind: 'dream', days: 30, clamped: false }],
    ['  /dream   3  ', { kind: 'dream', days: 3, clamped: false }],
    ['/dream 0', { kind: 'dream', days: 1, clamped: false }],
    ['/dream 9999', { kind: 'dream', days: 365, clamped: true }],
    ['/dream status', { kind: 'status' }],
    ['/dream help', { kind: 'usage' }],
    ['/dream -3', { kind: 'usage' }],
    ['/dream 2.5', { kind: 'usage' }],
    ['/dream seven', { kind: 'usage' }],
  ])('%s', (text, expected) => {
    expect(parseDreamCommand(text, limits)).toEqual(expected)
  })

  it.each(['hello', '/dreaming on', 'tell me about /dream', '/dreams'])('ignores %s', (text) => {
    expect(parseDreamCommand(text, limits)).toBeNull()
  })

  it('words the replies', () => {
    expect(queuedReply(7, false, 365)).toBe('Dream queued in the background for the last 7 day(s).')
    expect(queuedReply(365, true, 365)).toContain('capped')
    expect(DREAM_USAGE.split('\n')[0]).toBe('Usage: /dream [days]')
  })
})
