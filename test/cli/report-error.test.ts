import { afterEach, describe, expect, it, vi } from 'vitest'
import { EXIT, reportError } from '../../src/cli/exit-codes.js'

afterEach(() => vi.restoreAllMocks())

describe('reportError', () => {
  it.each([
    [
      'a full disk under SQLite (a state.db migration)',
      { code: 'SQLITE_FULL', message: 'database or disk is full' },
      /disk is full/,
    ],
    ['an SQLite write I/O error', { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' }, /I\/O error/],
    [
      'ENOSPC from the fs layer',
      { code: 'ENOSPC', path: '/x/notes/a.md', message: 'ENOSPC' },
      /could not write \/x\/notes\/a\.md: the disk is full/,
    ],
  ])('%s is the cannot-write code with a plain message, not a bug with a stack', (_name, fields, words) => {
    const printed: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void printed.push(String(line)))
    const code = reportError(Object.assign(new Error(fields.message), fields), false)
    expect(code).toBe(EXIT.cannotWrite)
    expect(printed.join('\n')).toMatch(words)
    expect(printed.join('\n')).not.toMatch(/\n\s+at |bug/)
  })

  it('still prints the stack of a real bug', () => {
    const printed: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void printed.push(String(line)))
    expect(reportError(new TypeError('x is undefined'), false)).toBe(EXIT.bug)
    expect(printed.join('\n')).toMatch(/this is a bug[\s\S]*TypeError: x is undefined\n\s+at /)
  })
})
