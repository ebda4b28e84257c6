import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/exit-codes.js'

describe('exit codes', () => {
  it('every exit code has a row in the README table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const documented = [...readme.matchAll(/^\| (\d+) +\|/gm)].map((match) => Number(match[1]))
    expect([...new Set(documented)].sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b))
  })
})
