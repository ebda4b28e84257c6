// Portuguese forget requests: "esquece o meu dentista", "por favor, esqueça isso", "não te lembres disso".
import type { ForgetRequestLocale } from './types.js'

const POLITE = String.raw`(?:por\s+favor,?\s+)?(?:(?:podes|pode|consegues)\s+)?`

export const pt: ForgetRequestLocale = {
  tag: 'pt',
  patterns: [
    new RegExp(
      String.raw`^${POLITE}(?:esquece|esqueça|esquecer|esquece-te\s+d[eoa]s?)\s+(?:de\s+|o\s+que\s+sabes\s+sobre\s+)?(?<what>.+?)(?:,?\s+por\s+favor)?[.!?]*$`,
      'iu',
    ),
    new RegExp(
      String.raw`^${POLITE}não\s+(?:te\s+)?(?:lembres|lembre|guardes|guarde)\s+(?<what>.+?)[.!?]*$`,
      'iu',
    ),
  ],
  pointers: new Set([
    ...['isso', 'isto', 'disso', 'disto', 'aquilo', 'daquilo', 'tudo isso'],
    ...[
      'o que acabei de dizer',
      'o que eu disse',
      'o que disse',
      'o que te disse',
      'o que acabei de escrever',
    ],
    ...['a minha última mensagem', 'a última mensagem', 'minha última mensagem'],
  ]),
}
