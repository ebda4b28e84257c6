// French forget requests: "oublie mon dentiste", "s'il te plaît, oublie ça", "ne retiens pas ça".
import type { ForgetRequestLocale } from './types.js'

const POLITE = String.raw`(?:s'il\s+(?:te|vous)\s+pla[iî]t,?\s+)?(?:(?:peux-tu|pouvez-vous)\s+)?`

export const fr: ForgetRequestLocale = {
  tag: 'fr',
  patterns: [
    new RegExp(
      String.raw`^${POLITE}(?:oublie|oubliez|oublier)\s+(?:tout\s+sur\s+)?(?<what>.+?)(?:,?\s+s'il\s+(?:te|vous)\s+pla[iî]t)?[.!?]*$`,
      'iu',
    ),
    new RegExp(String.raw`^${POLITE}ne\s+(?:retiens|retenez|garde|gardez)\s+pas\s+(?<what>.+?)[.!?]*$`, 'iu'),
  ],
  pointers: new Set([
    ...['ça', 'ca', 'cela', 'ceci', 'tout ça', 'tout cela'],
    ...['ce que je viens de dire', "ce que j'ai dit", "ce que je t'ai dit", "ce que je viens d'écrire"],
    ...['mon dernier message', 'le dernier message'],
  ]),
}
