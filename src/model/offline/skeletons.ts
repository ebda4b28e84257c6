// The starter text of each memory file. notes-template/ ships the same bytes (a test keeps them equal); the
// engine falls back to these when a file is missing, since its tools cannot read the template folder.
import type { MemoryFile } from '../../notes/paths.js'

const note = (lines: string[]): string => `${lines.join('\n')}\n`

export const MEMORY_SKELETONS: Readonly<Record<MemoryFile, string>> = {
  'MEMORY.md': note([
    '# Memory',
    '',
    '> The compact index read at the start of every session: one-line pointers to the memory files and to the',
    '> days worth remembering, kept under a size budget. Dreams rewrite only their marked block and trim the',
    '> oldest day pointers first, never the newest. Lines you add outside the block are kept as written.',
  ]),
  'current-state.md': note([
    '# Current state',
    '',
    '> What is true now: open threads and ongoing work, dated plans, and how complete each day of the last',
    "> dream's window is. Dreams append open threads below and rewrite only their marked block.",
    '',
    '## Open threads',
  ]),
  'recent-context.md': note([
    '# Recent context',
    '',
    '> The last few days in brief, for quick orientation. Every dream rewrites its marked block for its own',
    '> window, so days that fall out of the window drop out of here (their daily notes stay).',
  ]),
  'user.md': note([
    '# User',
    '',
    '> Who the user is: identity, the people (and pets) around them, stable preferences. One bullet per fact,',
    '> with the day it was learned. When a fact changes, the old bullet is struck through and marked superseded',
    '> with its date — never deleted. Bullets without a `key` comment are yours: dreams never change them.',
    '',
    '## Identity',
    '',
    '## People',
    '',
    '## Preferences',
  ]),
  'feedback.md': note([
    '# Feedback',
    '',
    '> How the user wants the assistant to answer and behave: corrections and steering, in their words, with',
    '> the day they said it. Read before answering. Bullets without a `key` comment are yours.',
    '',
    '## How to answer',
  ]),
  'project.md': note([
    '# Projects',
    '',
    '> Projects, decisions, plans and deadlines. Dates are absolute (YYYY-MM-DD). A moved deadline keeps its',
    '> old bullet, struck through and marked superseded with the date of the change.',
    '',
    '## Decisions',
    '',
    '## Plans and deadlines',
  ]),
  'reference.md': note([
    '# Reference',
    '',
    '> Stable reference facts: ids, addresses, accounts, network names, places. Secrets (passwords, PINs,',
    '> security codes) are never written here.',
    '',
    '## Reference',
  ]),
}
