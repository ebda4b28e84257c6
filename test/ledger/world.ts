// A dream world for ledger tests: rich memory files to lose, snapshots of the notes tree, scripted merges.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { DreamlaneOptions } from '../../src/create.js'
import type { ReviewMode } from '../../src/config/schema.js'
import { createScriptedProvider, type ScriptStep } from '../../src/model/scripted.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'

// MEMORY.md as a workspace from before its index block has it: the tools leave such a file to the loss guard, which
// these tests exercise (with the block, a write outside it is refused before the guard is reached).
const TEMPLATE_HEAD = readFileSync(
  join(import.meta.dirname, '..', '..', 'notes-template', 'MEMORY.md'),
  'utf8',
).replace('\n<!-- dreamlane:begin index -->\n<!-- dreamlane:end index -->\n', '')

/** Facts a careless merge could lose: names, numbers, dates. */
export const FACT_LINES = [
  '- Sister Ana lives in Braga; she visits on 2026-12-24.',
  '- Atlas project: Postgres 16, budget 12,000 EUR, deadline March 3, 2027.',
  '- Dentist is Dr. Sousa, every 6 months.',
  '- Partner Tomás works at Fernwood Labs.',
  '- Prefers short answers in the morning.',
  '- Runs the Porto half marathon each May.',
]

export const RICH_MEMORY = `${TEMPLATE_HEAD}\n## Notes\n\n${FACT_LINES.join('\n')}\n`
/** MEMORY.md with the second half of its facts gone. */
export const HALF_MEMORY = `${TEMPLATE_HEAD}\n## Notes\n\n${FACT_LINES.slice(0, 3).join('\n')}\n`

export interface LedgerWorld extends DreamWorld {
  open(options?: Partial<DreamlaneOptions> & { review?: ReviewMode }): ReturnType<DreamWorld['open']>
  read(rel: string): string
  write(rel: string, content: string): void
  /** sha256 of every file under notes/, by workspace-relative path. */
  snapshot(): Record<string, string>
}

export async function makeLedgerWorld(): Promise<LedgerWorld> {
  const world = await makeDreamWorld()
  const write = (rel: string, content: string): void => writeFileSync(join(world.dir, rel), content)
  write('notes/memory/MEMORY.md', RICH_MEMORY)
  return {
    ...world,
    open(options = {}) {
      const { review, ...rest } = options
      const config = review ? { ...world.config, dream: { ...world.config.dream, review } } : world.config
      return world.open({ config, ...rest })
    },
    read: (rel) => readFileSync(join(world.dir, rel), 'utf8'),
    write,
    snapshot: () => snapshotTree(world.dir, join(world.dir, 'notes')),
  }
}

function snapshotTree(root: string, dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    // notes/DREAMS.md is the dreams' append-only log: outside backups, undo and restore by design.
    if (entry.name === 'DREAMS.md' && entry.parentPath === dir) continue
    const file = join(entry.parentPath, entry.name)
    out[relative(root, file).split(sep).join('/')] = createHash('sha256')
      .update(readFileSync(file))
      .digest('hex')
  }
  return out
}

/** A provider whose turn writes each `files` entry with write_file, then says `text`. */
export function writesFiles(files: Record<string, string>, text = 'Merged memory.') {
  const steps: ScriptStep[] = Object.entries(files).map(([path, content]) => ({
    tool: 'write_file',
    input: { path, content },
  }))
  return createScriptedProvider([...steps, { text }])
}
