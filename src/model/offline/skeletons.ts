// The starter text of each memory file. notes-template/ ships the same bytes (a test keeps them equal); the
// engine falls back to these when a file is missing, since its tools cannot read the template folder.
import type { MemoryFile } from '../../notes/paths.js'

const note = (lines: string[]): string => `${lines.join('\n')}\n`

export const MEMORY_SKELETONS: Readonly<Record<MemoryFile, string>> = {
  'MEMORY.md': note([
    '# Memory',
    '',
    '> Index read at every session start; dreams rewrite only the marked block.',
    '',
    '<!-- dreamlane:begin index -->',
    '<!-- dreamlane:end index -->',
  ]),
  'current-state.md': note([
    '# Current state',
    '',
    "> What is true now: upcoming dates, open threads, the last window's days.",
  ]),
  'recent-context.md': note([
    '# Recent context',
    '',
    "> The last dream's window in brief; rewritten each dream.",
  ]),
  'user.md': note([
    '# User',
    '',
    '> Who the user is, the people and pets around them, preferences. See notes-template/README.md.',
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
    '> How the user wants the assistant to answer, in their words. Read before answering.',
    '',
    '## How to answer',
  ]),
  'project.md': note([
    '# Projects',
    '',
    '> Decisions, plans and deadlines, with absolute dates; moved dates stay, struck through.',
    '',
    '## Decisions',
    '',
    '## Plans and deadlines',
  ]),
  'reference.md': note([
    '# Reference',
    '',
    '> Ids, addresses, accounts, network names, places. Never secrets.',
    '',
    '## Reference',
  ]),
}
