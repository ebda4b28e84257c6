// The offline reply: quotes the best-matching note lines with their paths, so memory is visible with no model.
import type { ToolSet } from '../tools/types.js'

/** Lines quoted in one reply; more would bury the best match. */
const MAX_QUOTES = 3
/** Hits asked of search_workspace; several may share a file, and only the best line per file is quoted. */
const SEARCH_LIMIT = 8
const MAX_TERMS = 8
const MAX_QUOTE_CHARS = 240

// Question words and fillers carry no topic; searching for them would rank every note alike.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in is it its me my ' +
    'no not of on or our so that the their them then there these they this to tell us was we were what when ' +
    'where which who why will with would you your about know remember anything something any some please ' +
    'should shall may might just also into than too very much many like likes love want wants need think ' +
    'get got make use used say said ever still again now'
  ).split(' '),
)

/** One hit as search_workspace serves it. */
interface ServedHit {
  path: string
  line: number
  snippet: string
  score: number
}

/** The search words of a question: topic words only, lower-cased, de-duplicated, in order. */
export function questionTerms(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []
  const terms: string[] = []
  for (const raw of words) {
    const word = raw.replace(/['’](s)?$/u, '')
    const isTopic = /\p{N}/u.test(word) || (word.length >= 3 && !STOP_WORDS.has(word))
    if (isTopic && !terms.includes(word)) terms.push(word)
    if (terms.length === MAX_TERMS) break
  }
  return terms
}

/**
 * Answers from the notes alone: searches through the tool set (so interactive recall is recorded like any
 * model's search) and quotes the best line of up to three files, each with its path and line number.
 */
export async function answerFromNotes(
  question: string,
  tools: ToolSet,
  signal?: AbortSignal,
): Promise<string> {
  const terms = questionTerms(question)
  if (terms.length === 0) {
    return 'Ask me about something in your notes (a person, a project, a date) and I will quote what memory says.'
  }
  const query = terms.join(' ')
  const result = await tools.call('search_workspace', { query, limit: SEARCH_LIMIT }, signal)
  if (!result.ok) return `I could not search the notes: ${result.content}`
  const hits = firstHitPerFile((JSON.parse(result.content) as { hits: ServedHit[] }).hits)
  const lines: string[] = []
  for (const hit of hits) {
    const best = await bestLineOf(hit, terms, tools, signal)
    if (best) lines.push(`• ${hit.path}:${best.line} — ${best.text}`)
    if (lines.length === MAX_QUOTES) break
  }
  if (lines.length === 0) return `Nothing in my notes matches “${query}” yet.`
  return [`From my notes (searched for “${query}”):`, ...lines].join('\n')
}

/**
 * The line of the hit's file that matches the most question terms at a word start (a hit points at the first
 * match in its chunk, often a heading, or only inside a word: "alive" for "live" — then null). Read through
 * read_file, so the tool layer's path policy still applies.
 */
async function bestLineOf(
  hit: ServedHit,
  terms: readonly string[],
  tools: ToolSet,
  signal?: AbortSignal,
): Promise<{ line: number; text: string } | null> {
  const read = await tools.call('read_file', { path: hit.path }, signal)
  if (!read.ok) return { line: hit.line, text: plainLine(hit.snippet) }
  const patterns = terms.map((term) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, 'iu'))
  let best = { line: 0, score: 0, text: '' }
  const lines = read.content.split('\n')
  let inside: 'front-matter' | 'comment' | null = lines[0] === '---' ? 'front-matter' : null
  for (let index = inside ? 1 : 0; index < lines.length; index++) {
    // Front matter and hidden comments (DREAM_CUES, key markers) are for the model, not for quotes.
    let text = (lines[index] ?? '').replace(/<!--.*?-->/g, '')
    if (inside === 'front-matter') {
      if (text === '---') inside = null
      continue
    }
    if (inside === 'comment') {
      if (text.includes('-->')) inside = null
      continue
    }
    if (text.includes('<!--')) {
      inside = 'comment'
      text = text.slice(0, text.indexOf('<!--'))
    }
    const matched = patterns.filter((pattern) => pattern.test(text)).length
    // Headings name a topic without saying anything; struck-through facts were superseded.
    const score = matched - (/^\s*#/.test(text) ? 0.5 : 0) - (/~~|superseded/i.test(text) ? 0.75 : 0)
    if (matched > 0 && score > best.score) best = { line: index + 1, score, text: plainLine(text) }
  }
  return best.line > 0 ? { line: best.line, text: best.text } : null
}

/**
 * One hit per file (the best, as hits arrive best first), memory files first: they hold what is true now,
 * day pages distil a day, daily notes are the raw record. Rank order is kept within each tier.
 */
function firstHitPerFile(hits: readonly ServedHit[]): ServedHit[] {
  const seen = new Set<string>()
  const kept: ServedHit[] = []
  for (const hit of hits) {
    if (seen.has(hit.path)) continue
    seen.add(hit.path)
    kept.push(hit)
  }
  return kept.sort((a, b) => tierOf(a.path) - tierOf(b.path))
}

function tierOf(path: string): number {
  if (path.startsWith('notes/memory/days/')) return 1
  return path.startsWith('notes/memory/') ? 0 : 2
}

/** A line without « » match markers, bold marks, list bullets or heading marks, on one line, capped. */
function plainLine(snippet: string): string {
  const line = snippet
    .replace(/[«»]/g, '')
    .replace(/\*\*/g, '')
    .replace(/^\s*(?:[-*+]|\d+\.|#{1,6})\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
  return line.length > MAX_QUOTE_CHARS ? `${line.slice(0, MAX_QUOTE_CHARS - 1)}…` : line
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
