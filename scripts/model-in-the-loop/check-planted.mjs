#!/usr/bin/env node
// check-planted.mjs SAMPLE_JSON WORKSPACE DAYS — is every planted fact of the window's days where it belongs?
// A fact is right when its expected memory file holds every `mustContain` string (case-insensitive; a "Month D" date
// also as its ISO month and day); a changed fact
// also needs every line that holds the old value without the new one to mark it superseded (struck or "superseded").
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const [sampleFile, workspace, daysArg] = process.argv.slice(2)
if (!sampleFile || !workspace) {
  console.error('usage: check-planted.mjs SAMPLE_JSON WORKSPACE [DAYS]')
  process.exit(2)
}
const sample = JSON.parse(readFileSync(sampleFile, 'utf8'))
const days = Number(daysArg ?? 7)
const firstDay = new Date(Date.parse(`${sample.lastDay}T00:00:00Z`) - (days - 1) * 86_400_000)
  .toISOString()
  .slice(0, 10)
const read = (file) => {
  try {
    return readFileSync(join(workspace, 'notes', 'memory', file), 'utf8')
  } catch {
    return ''
  }
}
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
/** "December 31" is also held by an absolute date the prompt asks for: "-12-31" (2026-12-31). */
function isHeld(text, words) {
  const lower = text.toLowerCase()
  if (lower.includes(words.toLowerCase())) return true
  const date = /^([a-z]+) (\d{1,2})$/i.exec(words)
  const month = date ? MONTHS.indexOf(date[1].toLowerCase()) : -1
  if (month === -1) return false
  return lower.includes(`-${String(month + 1).padStart(2, '0')}-${date[2].padStart(2, '0')}`)
}
let right = 0
const wrong = []
const inWindow = sample.planted.filter((fact) => fact.day >= firstDay)
for (const fact of inWindow) {
  const text = read(fact.expectedFile)
  const missing = fact.mustContain.filter((words) => !isHeld(text, words))
  const stale = (fact.supersedes?.mustContain ?? []).filter((old) =>
    text.split('\n').some((line) => {
      const lower = line.toLowerCase()
      const isNewValueThere = fact.mustContain.every((words) => lower.includes(words.toLowerCase()))
      return lower.includes(old.toLowerCase()) && !isNewValueThere && !/~~|supersed/i.test(line)
    }),
  )
  if (missing.length === 0 && stale.length === 0) right++
  else
    wrong.push(
      `${fact.id} (${fact.expectedFile}): ${missing.length ? `missing ${missing.join(', ')}` : ''}${stale.length ? ` old value still current: ${stale.join(', ')}` : ''}`,
    )
}
console.log(`planted facts right: ${right} of ${inWindow.length} (days ${firstDay} … ${sample.lastDay})`)
for (const line of wrong) console.log(`  wrong: ${line}`)
process.exit(wrong.length === 0 ? 0 : 1)
