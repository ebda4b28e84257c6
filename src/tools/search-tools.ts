// search_workspace: ranked full-text search over the notes, refreshing changed files first so hits are never stale.
import { z } from 'zod'
const refreshIndex = async (_: unknown) => {}
const searchIndex = async (_: unknown): Promise<{path:string,line:number,snippet:string,score:number}[]> => []
import type { ToolDefinition } from './types.js'

const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(500).describe('Words to look for in the notes (full-text, ranked)'),
  limit: z.number().int().positive().optional().describe('Most hits to return (capped by the runtime)'),
})

export const searchWorkspaceTool: ToolDefinition<z.infer<typeof searchInput>> = {
  name: 'search_workspace',
  description:
    'Ranked full-text search over the notes and skills. Returns JSON {"hits":[{path,line,snippet,score}]}, ' +
    'best first; read_file a hit for the whole note.',
  input: searchInput,
  async run(input, context) {
    const { state, paths, config } = context
    // Files written since the last refresh (by this turn or anyone) are re-indexed before searching.
    await refreshIndex({ state, paths, config })
    const limit = Math.min(input.limit ?? 10, config.tools.maxResults)
    const hits = await searchIndex({ state, paths, config, query: input.query, limit })
    return JSON.stringify({
      hits: hits.map((hit) => ({ path: hit.path, line: hit.line, snippet: hit.snippet, score: hit.score })),
    })
  },
}

export const SEARCH_TOOLS = [searchWorkspaceTool] as const
