// The one secret detector: every parser over the text, then every refiner; spans in text order.
import { createConfiguration, type DetectorConfiguration } from './configuration.js'
import type { SecretKind, SecretSpan } from './types.js'

export interface DetectOptions {
  /** Kinds the user keeps on purpose (`privacy.keepSecretKinds`): never reported. @default none */
  keepKinds?: readonly SecretKind[]
}

let defaultConfiguration: DetectorConfiguration | undefined

// Anything that can hold a secret has a digit, a key-shaped word or a phrase noun; most chat lines have none of
// the nouns, so a cheap test first lets them skip the parsers.
const MAYBE_SECRET =
  /\d|-----BEGIN|[A-Za-z0-9_-]{20,}|pass|pin|code|key|token|secret|contrase|clave|senha|kennwort|mot de passe|mdp|pwd|psk/i

/** The secrets in `text`, in order, none overlapping. */
export function detectSecrets(
  text: string,
  options: DetectOptions = {},
  configuration: DetectorConfiguration = (defaultConfiguration ??= createConfiguration()),
): SecretSpan[] {
  if (text.length === 0 || !MAYBE_SECRET.test(text)) return []
  let spans = configuration.parsers.flatMap((parser) => parser.find(text))
  for (const refiner of configuration.refiners) spans = refiner.refine(text, spans)
  const kept = options.keepKinds
  return kept && kept.length > 0 ? spans.filter((span) => !kept.includes(span.kind)) : spans
}
