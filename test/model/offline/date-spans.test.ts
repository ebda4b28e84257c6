import { describe, expect, it } from 'vitest'
import { annotateSpans } from '../../../src/model/offline/date-spans.js'

describe('annotateSpans', () => {
  const day = '2026-11-19'

  it.each([
    ['Last month I ran a marathon.', 'Last month (October 2026) I ran a marathon.'],
    ['I moved here last year.', 'I moved here last year (2025).'],
    ['Next year I will retire.', 'Next year (2027) I will retire.'],
    ['I started two years ago.', 'I started two years ago (2024).'],
    ['We met a few years ago.', 'We met a few years ago (about 2023).'],
    ['I first saw it around 3 years ago.', 'I first saw it around 3 years ago (about 2023).'],
    ['We moved almost two months ago.', 'We moved almost two months ago (about September 2026).'],
  ])('resolves a calendar month or year: "%s"', (text, expected) => {
    expect(annotateSpans(text, day)).toBe(expected)
  })

  // The months up to now are no calendar unit: "the past year" said in November 2026 is not 2025.
  it.each([
    'I have grown a lot in the past year.',
    'Over the last month I ran 100 km.',
    'For the past year I have been vegan.',
    'This past month has been busy.',
  ])('leaves a stretch of time up to now alone: "%s"', (text) => {
    expect(annotateSpans(text, day)).toBe(text)
  })
})
