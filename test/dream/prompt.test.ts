// The shipped dream prompt states the memory contract: each format the runtime reads back, and where budgets are.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDreamPrompt } from '../../src/dream/prompt.js'

const ROOT = join(import.meta.dirname, '../..')
// A workspace without its own skills/ reads the shipped prompt.
const PROMPT = readDreamPrompt({ workspace: join(ROOT, 'test'), skills: join(ROOT, 'skills') })

describe('the dream prompt (skills/dream/SKILL.md)', () => {
  it('is the shipped file', () => {
    expect(PROMPT).toBe(readFileSync(join(ROOT, 'skills/dream/SKILL.md'), 'utf8'))
  })

  it.each([
    [
      'a fact line: bold subject and value, a link per day',
      /^- \*\*City: Porto\*\* — .+ \[\[2026-05-02\]\] \[\[2026-06-01\]\]$/m,
    ],
    ['that the runtime writes the key comment', /never write its `<!-- key: … -->` comment/],
    ['reinforcement by a new day link', /add that day's link to the same bullet/],
    ['a change by editing the bold value', /edit the value in the bold lead/],
    ['where other people go', /`user\.md` under `## People`, a `### Name \(relation\)` heading/],
    ["a person's own facts", /^### Ana \(sister\)\n\n- \*\*Lives in: Madrid\*\*/m],
    ["MEMORY.md's block markers", /`<!-- dreamlane:begin index -->` and `<!-- dreamlane:end index -->`/],
    ['a MEMORY.md pointer', /^- \[user\.md\]\(user\.md\) — /m],
    ['a recent-context line', /^`- \[\[2026-06-03\]\] Wed: /m],
    ['a finished daily note', /^## Summary\n\n- /m],
    ['finish_day for a day', /one `finish_day` call/],
    [
      'that budgets come in the run message and tool results',
      /tool calls, tokens,\s+output tokens per reply, and the bytes/,
    ],
    [
      'who the user is in a page',
      /Rows marked `from_me` are the user's words;\s+`bot` rows were stored as an/,
    ],
    [
      'that the other person is named, not an assistant',
      /Go by `sender`; with no `from_me`, the user is\s+who is not `bot`/,
    ],
  ])('states %s', (_what, pattern) => {
    expect(PROMPT).toMatch(pattern)
  })

  it('stays small: every byte is re-sent with every request', () => {
    expect(Buffer.byteLength(PROMPT)).toBeLessThan(6000)
  })
})
