import { describe, expect, it } from 'vitest'
import { formatBackupId, formatStamp, nextSequence, parseBackupId } from '../../src/backup/naming.js'

describe('backup ids', () => {
  it('formats a compact UTC stamp and parses it back', () => {
    const stamp = formatStamp(new Date('2026-11-21T01:02:03.456Z'))
    expect(stamp).toBe('20261121T010203Z')
    const id = formatBackupId(stamp, 0, 'manual', 'dream:web/chat 1')
    expect(id).toBe('20261121T010203Z-manual-dream_web_chat_1')
    expect(parseBackupId(`${id}.zip`)).toEqual({
      id,
      sortKey: '20261121T010203Z',
      createdAt: '2026-11-21T01:02:03.000Z',
      mode: 'manual',
      chatJid: 'dream_web_chat_1',
      sequence: 0,
    })
  })

  it('keeps the mode free of "-" so a jid with dashes still parses', () => {
    const id = formatBackupId('20261121T010203Z', 2, 'pre-dream', 'a-b-c')
    expect(id).toBe('20261121T010203Z.002-pre_dream-a-b-c')
    expect(parseBackupId(id)).toMatchObject({
      mode: 'pre_dream',
      chatJid: 'a-b-c',
      sequence: 2,
      sortKey: '20261121T010203Z.002',
    })
  })

  it('continues the sequence after the highest one used in the same second', () => {
    const names = [
      '20261121T010203Z-auto-c.zip',
      '20261121T010203Z.004-auto-c.zip',
      '20261121T010204Z.009-auto-c.zip',
      'x.zip',
    ]
    expect(nextSequence('20261121T010203Z', names)).toBe(5)
    expect(nextSequence('20261121T010205Z', names)).toBe(0)
  })

  it.each([
    '20261321T010203Z-manual-c',
    '20261121T250000Z-manual-c',
    '20261121T010203Z.1-manual-c',
    '20261121T010203Z--c',
    'a/b',
    '',
  ])('rejects %j', (name) => {
    expect(parseBackupId(name)).toBeUndefined()
  })
})
