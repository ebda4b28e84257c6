// One span per stretch of text: of overlapping spans the longest wins, and of equal ones the first found (parsers
// run most specific first).
import type { SecretRefiner, SecretSpan } from '../types.js'

export const overlapMerger: SecretRefiner = {
  name: 'merge-overlaps',
  refine(_text, spans) {
    const ordered = spans
      .map((span, order) => ({ span, order }))
      .sort((a, b) => b.span.end - b.span.start - (a.span.end - a.span.start) || a.order - b.order)
    const kept: SecretSpan[] = []
    for (const { span } of ordered) {
      if (!kept.some((other) => span.start < other.end && span.end > other.start)) kept.push(span)
    }
    return kept.sort((a, b) => a.start - b.start).map(({ kind, start, end }) => ({ kind, start, end }))
  },
}
