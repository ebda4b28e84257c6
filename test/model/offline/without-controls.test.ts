import { describe, expect, it } from 'vitest'
import { withoutControls } from '../../../src/model/offline/text.js'

describe('withoutControls', () => {
  it('drops terminal escape sequences whole and turns other control characters into spaces', () => {
    expect(withoutControls('build \u001b[31mfailed\u001b[0m at step 3\u0007')).toBe('build failed at step 3 ')
    expect(withoutControls('tab\tand\nnewline stay')).toBe('tab\tand\nnewline stay')
    expect(withoutControls('NUL\u0000here')).toBe('NUL here')
  })
})
