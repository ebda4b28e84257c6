// Private key blocks (PEM, OpenSSH, PGP): the whole block, or to the end of the text when its END line is cut off.
import type { SecretParser } from '../types.js'

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g

export const privateKeyParser: SecretParser = {
  name: 'private-keys',
  find(text) {
    return [...text.matchAll(BEGIN)].map((match) => {
      const endLine = `-----END ${match[1]}-----`
      const endAt = text.indexOf(endLine, match.index)
      return {
        kind: 'private-key' as const,
        start: match.index,
        end: endAt === -1 ? text.length : endAt + endLine.length,
      }
    })
  },
}
