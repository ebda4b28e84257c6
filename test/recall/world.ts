// A recall world: notes in a temp workspace, the real search_workspace tool wired to the real recorder.
import { fixedClock } from '../../src/clock.js'
import { recallRecorder } from '../../src/recall/events.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import type { RecalledHit } from '../../src/tools/types.js'
import { makeToolWorld } from '../tools/world.js'

export const NOTES: Record<string, string> = {
  'notes/people.md': [
    '# People',
    '',
    "- Maya is Alex's sister and lives in Porto",
    '- Sam runs the kite shop on Harbour Street',
    '',
  ].join('\n'),
  'notes/projects/atlas.md': [
    '# Atlas',
    '',
    'The Atlas launch deadline is December 1 and the printing budget is 40k.',
    '',
    '## Risks',
    '',
    'Vendor delays on the printed maps.',
    '',
  ].join('\n'),
  'notes/memory/user.md': "# User\n- Alex's sister Maya visits in spring\n",
  'notes/memory/MEMORY.md': '# Memory\n\n- [user.md](user.md): who Alex is\n',
}

export const DAY_MS = 86_400_000

/** World at `start` (default 2026-11-10 09:00Z); `search` runs the real tool as chat `chatJid` would. */
export function makeRecallWorld(files: Record<string, string> = NOTES, start = '2026-11-10T09:00:00Z') {
  const world = makeToolWorld(files, { isDream: false })
  const clock = fixedClock(start)
  const served: { query: string; hits: readonly RecalledHit[] }[] = []
  const recorder = recallRecorder({
    state: world.state,
    workspace: world.paths.workspace,
    chatJid: 'alex@chat',
    clock,
    timeZone: world.config.timezone,
  })
  const interactive = createToolSet({
    ...world.context,
    clock,
    isDream: false,
    onRecall: (query, hits) => {
      served.push({ query, hits })
      recorder(query, hits)
    },
  })
  const dream = createToolSet({ ...world.context, clock, isDream: true, onRecall: recorder })
  async function search(query: string, options: { isDream?: boolean } = {}): Promise<RecalledHit[]> {
    const tools = options.isDream ? dream : interactive
    const result = await tools.call('search_workspace', { query })
    if (!result.ok) throw new Error(result.content)
    return (JSON.parse(result.content) as { hits: RecalledHit[] }).hits
  }
  const eventRows = () =>
    world.state.prepare('SELECT * FROM recall_events ORDER BY id').all() as {
      id: number
      chunk_key: string
      query_hash: string
      score: number
      relevance: number
      day: string
      at_ms: number
      chat_jid: string
    }[]
  return { ...world, clock, search, served, eventRows }
}
