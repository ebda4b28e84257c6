// search_workspace: ranked full-text search over the notes, refreshing changed files first so hits are fresh.
import { z } from 'zod'
import { refreshIndex } from '../fts/refresh.js'
import { searchIndex } from '../fts/search.js'
import type { ToolDefinition } from './types.js'

/** Hits returned when the model gives no limit. */
const DEFAULT_LIMIT = 10

const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(500).describe('Words to look for in the notes (full-text, ranked)'),
  limit: z.number().int().positive().optional().describe('Most hits to return (capped by the runtime)'),
})

export const searchWorkspaceTool: ToolDefinition<z.infer<typeof searchInput>> = {
  name: 'search_workspace',
  description:
    'Ranked full-text search over the notes and skills. Returns JSON ' +
    '{"hits":[{path,line,snippet,score}]}, best first; read_file a hit for the whole note.',
  input: searchInput,
  async run(input, context) {
    const { state, paths, config, clock } = context
    // Files written since the last refresh (by this turn or anyone else) are re-indexed before searching.
    await refreshIndex({ state, paths, config, clock })
    const limit = Math.min(input.limit ?? DEFAULT_LIMIT, config.tools.maxResults)
    const found = await searchIndex({
      state,
      paths,
      config,
      clock,
      query: input.query,
      limit,
      refresh: false,
    })
    const hits = found.map(({ path, line, snippet, score }) => ({ path, line, snippet, score }))
    // Dream turns never feed recall: a dream reading its own notes must not promote them.
    if (!context.isDream) context.onRecall?.(input.query, hits)
    return JSON.stringify({ hits })
  },
}

export const SEARCH_TOOLS = [searchWorkspaceTool] as const
