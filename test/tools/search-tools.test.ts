// search_workspace on the real FTS index: fresh after tool writes, capped, recall only for interactive turns.
import { describe, expect, it } from 'vitest'
import { createToolSet } from '../../src/tools/tool-set.js'
import type { RecalledHit } from '../../src/tools/types.js'
import { makeToolWorld } from './world.js'

interface HitsJson {
  hits: RecalledHit[]
}

function searchWorld(isDream: boolean, flags = {}) {
  const recalled: { query: string; hits: readonly RecalledHit[] }[] = []
  const world = makeToolWorld(
    {
      'notes/memory/user.md': '# User\n- Alex prefers oolong tea\n',
      'notes/memory/project.md': '# Project\n- Launch of the kite shop\n',
      'skills/dream/SKILL.md': '# Dream\nConsolidate memories.\n',
    },
    { isDream, flags },
  )
  const tools = createToolSet({ ...world.context, onRecall: (query, hits) => recalled.push({ query, hits }) })
  const search = async (input: unknown): Promise<HitsJson> => {
    const result = await tools.call('search_workspace', input)
    expect(result.ok, result.content).toBe(true)
    return JSON.parse(result.content) as HitsJson
  }
  return { ...world, tools, search, recalled }
}

describe('search_workspace', () => {
  it('finds notes as JSON hits with path, line, snippet and score', async () => {
    const { search } = searchWorld(true)
    const { hits } = await search({ query: 'oolong' })
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ path: 'notes/memory/user.md', line: 2 })
    expect(hits[0]?.snippet).toMatch(/oolong/i)
    expect(typeof hits[0]?.score).toBe('number')
  })

  it('sees a note written through the tools in the same turn', async () => {
    const { search, tools } = searchWorld(true)
    expect((await search({ query: 'zeppelin' })).hits).toEqual([])
    await tools.call('edit_file', {
      path: 'notes/memory/project.md',
      old_string: 'kite',
      new_string: 'zeppelin',
    })
    const { hits } = await search({ query: 'zeppelin' })
    expect(hits.map((hit) => hit.path)).toEqual(['notes/memory/project.md'])
    expect((await search({ query: 'kite' })).hits).toEqual([])
  })

  it('caps the number of hits at tools.maxResults', async () => {
    const files: Record<string, string> = {}
    const { search, tools } = searchWorld(true, { tools: { maxResults: 3 } })
    for (let i = 0; i < 6; i++)
      files[`notes/memory/days/2026-11-0${i + 1}.md`] = `# Day\nharbour visit ${i}\n`
    for (const [path, content] of Object.entries(files)) await tools.call('write_file', { path, content })
    expect((await search({ query: 'harbour', limit: 50 })).hits).toHaveLength(3)
    expect((await search({ query: 'harbour', limit: 2 })).hits).toHaveLength(2)
  })

  it('reports hits for recall only on interactive turns', async () => {
    const dream = searchWorld(true)
    await dream.search({ query: 'oolong' })
    expect(dream.recalled).toEqual([])
    const chat = searchWorld(false)
    const { hits } = await chat.search({ query: 'oolong' })
    expect(chat.recalled).toEqual([{ query: 'oolong', hits }])
  })
})
