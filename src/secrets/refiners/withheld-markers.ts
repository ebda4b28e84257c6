// Drops spans inside text the detector already withheld, so scanning a cleaned note again changes nothing.
import type { SecretRefiner } from '../types.js'
import { WITHHELD_MARKER } from '../marker.js'

export const withheldMarkerFilter: SecretRefiner = {
  name: 'withheld-markers',
  refine(text, spans) {
    if (!text.includes('(withheld ')) return spans
    const markers = [...text.matchAll(WITHHELD_MARKER)].map((match) => [
      match.index,
      match.index + match[0].length,
    ])
    return spans.filter((span) => !markers.some(([from = 0, to = 0]) => span.start < to && span.end > from))
  },
}
