import { describe, expect, it } from 'vitest'
import { digest64 } from '../../src/config/digest.js'

describe('digest64', () => {
  it('is 16 hex digits, the same for the same text and different for any edit', () => {
    const text = JSON.stringify({ backups: { keep: 3 }, timezone: 'Europe/Berlin' })
    expect(digest64(text)).toMatch(/^[0-9a-f]{16}$/)
    expect(digest64(text)).toBe(digest64(`${text}`))
    // Every one-character flip and deletion: as many different digests as different texts.
    const texts = new Set([text])
    for (let i = 0; i < text.length; i++) {
      texts.add(text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1))
      texts.add(text.slice(0, i) + text.slice(i + 1))
    }
    expect(new Set([...texts].map(digest64)).size).toBe(texts.size)
    expect(digest64('')).not.toBe(digest64('\0'))
  })
})
