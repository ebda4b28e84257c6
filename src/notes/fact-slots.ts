// Where each fact bullet of a memory file stands: the key its file stem, `###` group (a person under `## People`)
// or parent bullet and its subject give it. Code, dream-owned blocks and comments hold no facts.
import { ARCHIVE_HEADING } from './fact-archive.js'
import { parseFactLine, slugOf, type FactLine } from './fact-lines.js'

/** One fact bullet and where it stands. */
export interface FactSlot {
  index: number
  fact: FactLine
  /** The key its file, scope and subject give it (a keyed line may carry another: the offline engine's). */
  derived: string
  /** Its scope holds many values per subject (`## People` without a person heading): a new value adds. */
  isMulti: boolean
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/
const FENCE = /^\s*(```|~~~)/
const OWNED_BEGIN = /<!-- dreamlane:begin (\S+) -->/
const PERSON_SECTION = 'people'
const BRACKETED = /\s*\([^()]*\)\s*$/

/** Reads the file's fact bullets with the scope each stands in; code, dream-owned blocks and comments are skipped. */
export function findFactSlots(lines: readonly string[], stem: string): FactSlot[] {
  const slots: FactSlot[] = []
  let [section, group] = [null as string | null, null as string | null]
  let isArchive = false
  let fence: string | null = null
  let owned: string | null = null
  let isInComment = false
  let parent: { fact: FactLine; prefix: string; isMulti: boolean } | null = null
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '')
    const fenced = FENCE.exec(line)?.[1]
    if (fence !== null || fenced) {
      if (fenced && (fence === null || fenced === fence)) fence = fence === null ? fenced : null
      return
    }
    if (isInComment) {
      isInComment = !line.includes('-->')
      return
    }
    if (owned !== null) {
      if (line.includes(`<!-- dreamlane:end ${owned} -->`)) owned = null
      return
    }
    const begins = OWNED_BEGIN.exec(line)?.[1]
    if (begins && !line.includes(`<!-- dreamlane:end ${begins} -->`)) {
      owned = begins
      return
    }
    if (line.lastIndexOf('<!--') > line.lastIndexOf('-->')) {
      isInComment = true
      return
    }
    const heading = HEADING.exec(line)
    if (heading) {
      const level = (heading[1] as string).length
      if (level <= 2) {
        section = heading[2] as string
        group = null
        isArchive = line.trim().toLowerCase() === ARCHIVE_HEADING.toLowerCase()
      } else if (level === 3) group = heading[2] as string
      parent = null
      return
    }
    const fact = parseFactLine(line)
    if (!fact) {
      if (line.trim() !== '' && !/^\s/.test(line)) parent = null
      return
    }
    // A fact names its subject or the day it was said: an undated plain sentence is a note, left as written.
    if (!fact.comment && !fact.hasLead && fact.links.length === 0) return
    const isPeople = stem === 'user' && section?.trim().toLowerCase() === PERSON_SECTION && !isArchive
    let prefix = stem
    let isMulti = false
    if (!isArchive && group !== null)
      prefix = isPeople ? `person.${slugOf(group.replace(BRACKETED, ''))}` : `${stem}.${slugOf(group)}`
    else if (isPeople) isMulti = true
    if (fact.indent !== '' && parent) {
      // A nested bullet belongs to the bullet above it: a person's facts under `- **Ula (sister)**`.
      prefix = parent.isMulti
        ? `person.${slugOf(parent.fact.value ?? parent.fact.subject.replace(BRACKETED, ''))}`
        : `${parent.prefix}.${slugOf(parent.fact.subject)}`
      isMulti = false
    } else if (fact.indent === '') parent = { fact, prefix, isMulti }
    let derived = `${prefix}.${slugOf(fact.subject)}`
    if (isMulti && fact.value === null) derived = `person.${slugOf(fact.subject.replace(BRACKETED, ''))}`
    else if (isMulti) derived = `${derived}.${slugOf(fact.value ?? '')}`
    slots.push({ index, fact, derived, isMulti })
  })
  return slots
}
