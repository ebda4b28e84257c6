// One fact bullet of a memory file read apart: its bold lead (`**Subject: value**`), its `[[day]]` links and its
// key comment. The shapes a model writes (notes/fact-keys.ts) and the ones the offline engine writes read alike.
import { DAY_LINK, dayLinksOf, seenField, type FactFreshness } from './fact-freshness.js'

/** A key comment's fields, in the order the offline engine writes them. */
export interface KeyComment {
  key: string
  value: string | null
  superseded: string | null
  seen: FactFreshness | null
}

/** A bullet line read apart. */
export interface FactLine {
  /** Leading whitespace: nested bullets are indented. */
  indent: string
  /** `-`, `*` or `+`. */
  marker: string
  /** The text after the marker and before the key comment, trailing spaces dropped. */
  visible: string
  /** The bold lead's subject, or the first words of a plain bullet. */
  subject: string
  /** The bold lead's value (`**City: Porto**`, `**City:** Porto`), or null when it names none. */
  value: string | null
  /** The text after the bold lead with links and dashes taken off: what the bullet adds to its subject. */
  detail: string
  /** Distinct `[[YYYY-MM-DD]]` days of the visible text, sorted. */
  links: string[]
  /** The bullet is struck through (`~~…~~`): a superseded entry. */
  isStruck: boolean
  /** It names its subject: a bold lead or a `Label: value` start, not a plain sentence. */
  hasLead: boolean
  comment: KeyComment | null
}

const BULLET = /^(\s*)([-*+]) +(.*?)\s*$/
const KEY_COMMENT = /\s*<!--\s*key:\s*([^;\s>]+)([^>]*?)-->\s*$/
const ANY_COMMENT = /<!--|-->/
const BOLD_LEAD = /^\*\*(.+?)\*\*(.*)$/
const FIELD = (name: string) => new RegExp(`;\\s*${name}:\\s*([^;]*?)\\s*(?:;|$)`)
const SEEN = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2}) x(\d+)$/
/** Where a value written after the bold lead ends: a dash, a day link, a semicolon, the end. */
const VALUE_END = /\s+[—–]\s|\s+-\s|\s*\[\[|;\s|\.?\s*$/
const PLAIN_SUBJECT_WORDS = 6
const PLAIN_LABEL = /^([^:[\]*~]{1,60}?):\s+(\S.*)$/
const PLAIN_LABEL_WORDS = 5

function parseComment(key: string, rest: string): KeyComment {
  const fields = `${rest.trim().replace(/;?\s*$/, '')}`
  const field = (name: string) => FIELD(name).exec(fields)?.[1] ?? null
  const seen = SEEN.exec(field('seen') ?? '')
  return {
    key,
    value: field('value'),
    superseded: field('superseded'),
    seen: seen
      ? { firstSeen: seen[1] as string, lastSeen: seen[2] as string, daysSeen: Number(seen[3]) }
      : null,
  }
}

/** The text with its day links taken out and spaces closed up. */
export function withoutLinks(text: string): string {
  return text
    .replace(DAY_LINK, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
}

/** A value as it now reads: a struck-through old value beside it (`~~Porto~~ Lisbon`) is no part of it. */
function shownValue(text: string): string {
  return text
    .replace(/~~[^~]*~~/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
}

function stripLead(text: string): string {
  return text.replace(/^[\s:—–-]+/, '').replace(/[\s—–-]+$/, '')
}

/** Subject, value and detail of a bullet's visible text (struck-through marks already removed). */
function readLead(text: string): Pick<FactLine, 'subject' | 'value' | 'detail' | 'hasLead'> {
  const bold = BOLD_LEAD.exec(text)
  if (!bold) {
    const plain = withoutLinks(text).split(/\s+[—–]\s/)[0] ?? ''
    // `Favourite word: zanzibarite`: a short subject before a colon names a value even without bold.
    const labelled = PLAIN_LABEL.exec(text)
    if (labelled && (labelled[1] as string).split(/\s+/).length <= PLAIN_LABEL_WORDS) {
      const after = labelled[2] as string
      const value = after.slice(0, VALUE_END.exec(after)?.index ?? after.length).trim()
      if (value !== '')
        return {
          subject: (labelled[1] as string).trim(),
          value,
          detail: stripLead(withoutLinks(after.slice(value.length))),
          hasLead: true,
        }
    }
    const words = plain.split(/\s+/).filter(Boolean)
    return {
      subject: words.slice(0, PLAIN_SUBJECT_WORDS).join(' '),
      value: null,
      detail: stripLead(withoutLinks(text)),
      hasLead: false,
    }
  }
  const lead = (bold[1] as string).trim()
  const rest = bold[2] as string
  const colon = lead.indexOf(':')
  if (colon !== -1 && colon < lead.length - 1) {
    const value = shownValue(lead.slice(colon + 1))
    return {
      subject: lead.slice(0, colon).trim(),
      value: value === '' ? null : value,
      detail: stripLead(withoutLinks(rest)),
      hasLead: true,
    }
  }
  // `**City:** Porto — …` or `**City**: Porto`: the value is written after the bold lead.
  if (colon === lead.length - 1 || /^\s*:/.test(rest)) {
    const after = rest.replace(/^\s*:?\s*/, '')
    const end = VALUE_END.exec(after)
    const value = after.slice(0, end?.index ?? after.length).trim()
    return {
      subject: lead.replace(/:$/, '').trim(),
      value: value === '' ? null : value,
      detail: stripLead(withoutLinks(after.slice(value.length))),
      hasLead: true,
    }
  }
  return { subject: lead, value: null, detail: stripLead(withoutLinks(rest)), hasLead: true }
}

/**
 * The bullet `line` read apart, or null when it is no bullet, carries a comment other than a key comment (a
 * promotion marker, say), or holds nothing but links.
 */
export function parseFactLine(line: string): FactLine | null {
  const bullet = BULLET.exec(line)
  if (!bullet) return null
  let body = bullet[3] as string
  const keyed = KEY_COMMENT.exec(body)
  if (keyed) body = body.slice(0, keyed.index)
  if (ANY_COMMENT.test(body)) return null
  const visible = body.trimEnd()
  const isStruck = visible.startsWith('~~')
  const unstruck = isStruck ? visible.replace(/^~~(.*?)~~/, '$1') : visible
  const lead = readLead(unstruck)
  if (lead.subject === '' || !/[\p{L}\p{N}]/u.test(lead.subject)) return null
  const links = dayLinksOf(visible)
  return {
    indent: bullet[1] as string,
    marker: bullet[2] as string,
    visible,
    ...lead,
    links,
    isStruck,
    comment: keyed ? parseComment(keyed[1] as string, keyed[2] as string) : null,
  }
}

/** A key segment: lower-case ASCII words joined by dashes, at most `maxWords` of them ("item" when none). */
export function slugOf(text: string, maxWords = 6): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  return words.slice(0, maxWords).join('-') || 'item'
}

/** A value as compared: case, accents, punctuation and spacing do not count. */
export function normalizeValue(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/**
 * Whether the value a bullet shows is the one its comment records. A trailing remark in brackets is not part of
 * the value: the offline engine writes `**Sister: Ula (died)**` over `value: Ula`.
 */
export function isSameValue(shown: string, recorded: string): boolean {
  const want = normalizeValue(recorded)
  return normalizeValue(shown) === want || normalizeValue(shown.replace(/\s*\([^()]*\)\s*$/, '')) === want
}

/** A value made safe for a comment field: one line, no `;`, `<`, `>` and no `--` that could close it. */
export function sanitizeField(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    .replace(/[;<>]/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim()
}

/** `<!-- key: K; value: V; superseded: D; seen: … -->`, fields in the offline engine's order. */
export function renderComment(comment: KeyComment): string {
  const parts = [`key: ${comment.key}`]
  if (comment.value !== null) parts.push(`value: ${sanitizeField(comment.value)}`)
  if (comment.superseded !== null) parts.push(`superseded: ${comment.superseded}`)
  if (comment.seen !== null) parts.push(seenField(comment.seen))
  return `<!-- ${parts.join('; ')} -->`
}

/** The bullet line for `visible` under `comment`. */
export function renderFactLine(
  fact: Pick<FactLine, 'indent' | 'marker'>,
  visible: string,
  comment: KeyComment,
) {
  return `${fact.indent}${fact.marker} ${visible} ${renderComment(comment)}`
}
