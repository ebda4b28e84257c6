// The shape of one language's rules for a plain-language forget request ("please forget my dentist").

/** One language: patterns whose group `what` names the thing, and the words that only point back ("that"). */
export interface ForgetRequestLocale {
  /** BCP 47 tag, for tests and logs. */
  tag: string
  /** Anchored at both ends, case-insensitive; `(?<what>…)` is what to forget. */
  patterns: readonly RegExp[]
  /** A `what` made of these alone points at an earlier message, not at a thing ("that", "it", "isso"). */
  pointers: ReadonlySet<string>
}
