import { describe, expect, it } from 'vitest'
import {
  DreamlaneError,
  MessagesDbBusyError,
  MessagesDbInvalidError,
  NoteNotUtf8Error,
  NoteReadOnlyError,
  WriteFailedError,
} from '../../src/errors.js'
import { statusOf } from '../../src/server/error-response.js'

describe('statusOf for faults', () => {
  it.each([
    [new NoteReadOnlyError('notes/memory/user.md', 'file'), 409],
    [new NoteNotUtf8Error('notes/memory/feedback.md'), 409],
    [new MessagesDbBusyError('/x/messages.db', 'pid 12'), 503],
    [new MessagesDbInvalidError('/x/messages.db', 'it is an empty file'), 503],
    [new DreamlaneError('STATE_DB_INVALID', 'state.db is unusable'), 503],
    [new WriteFailedError('/x/notes/a.md', Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })), 507],
  ] as const)('%s → %i, not a 500 "bug"', (error, status) => {
    expect(statusOf(error)).toBe(status)
  })
})
