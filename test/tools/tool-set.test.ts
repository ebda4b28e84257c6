// The ToolSet contract: dispatch, validation, failures as results, records, beforeCall, specs, changedFiles.
import { offlineDayDrafter } from '../../src/model/offline/day-drafter.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ALL_TOOLS, createToolSet } from '../../src/tools/tool-set.js'
import type { ToolCallRecord, ToolDefinition } from '../../src/tools/types.js'
import { makeToolWorld, NOW } from './world.js'

const EXPECTED_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'finish_day',
  'list_files',
  'grep_notes',
  'search_workspace',
  'get_messages',
  'search_messages',
  'list_chats',
  'draft_day', // offered only to a tool set with a day drafter (a dream's)
]

function world() {
  return makeToolWorld({ 'notes/memory/user.md': '# User\n- tea\n' })
}

describe('createToolSet', () => {
  it('offers a JSON Schema spec for every tool', () => {
    const tools = createToolSet({ ...world().context, dayDrafter: offlineDayDrafter('UTC') })
    const specs = tools.specs()
    expect(specs.map((spec) => spec.name)).toEqual(EXPECTED_TOOLS)
    for (const spec of specs) {
      expect(spec.description.length).toBeGreaterThan(20)
      expect(spec.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(spec.inputSchema).not.toHaveProperty('$schema')
    }
    const edit = specs.find((spec) => spec.name === 'edit_file')?.inputSchema
    expect(edit).toMatchObject({ required: ['path', 'old_string', 'new_string'] })
    expect(edit?.properties).toHaveProperty(
      'replace_all',
      expect.objectContaining({ type: 'boolean', default: false }),
    )
    const list = specs.find((spec) => spec.name === 'list_files')?.inputSchema
    expect(list?.required ?? []).toEqual([])
  })

  it('records every call in order with ok flags, codes, previews and the clock time', async () => {
    const seen: ToolCallRecord[] = []
    const tools = createToolSet(world().context, { onCall: (record) => seen.push(record) })
    await tools.call('read_file', { path: 'notes/memory/user.md' })
    await tools.call('read_file', { path: '../x.md' })
    await tools.call('nope', {})
    await tools.call('read_file', { file: 'x' })
    expect(tools.calls()).toMatchObject([
      {
        name: 'read_file',
        input: { path: 'notes/memory/user.md' },
        ok: true,
        preview: '# User\n- tea\n',
        startedAt: new Date(NOW).toISOString(),
      },
      { name: 'read_file', ok: false, code: 'PATH_OUT_OF_SCOPE' },
      { name: 'nope', ok: false, code: 'UNKNOWN_TOOL' },
      { name: 'read_file', ok: false, code: 'TOOL_INPUT_INVALID' },
    ])
    expect(tools.calls()[0]).not.toHaveProperty('code')
    expect(seen).toEqual(tools.calls())
    for (const record of tools.calls()) expect(record.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('explains invalid input with the zod issue text', async () => {
    const tools = createToolSet(world().context)
    const result = await tools.call('grep_notes', { pattern: '', ignore_case: 'yes' })
    expect(result).toMatchObject({ ok: false, code: 'TOOL_INPUT_INVALID' })
    expect(result.content).toMatch(/^invalid input for grep_notes:/)
    expect(result.content).toMatch(/→ at pattern/)
    expect(result.content).toMatch(/→ at ignore_case/)
  })

  it('awaits beforeCall before each call starts', async () => {
    const events: string[] = []
    const tools = createToolSet(world().context, {
      beforeCall: async (name) => {
        events.push(`before ${name}`)
        await new Promise((resolve) => setTimeout(resolve, 5))
        events.push(`released ${name}`)
      },
      onCall: (record) => events.push(`done ${record.name}`),
    })
    await tools.call('read_file', { path: 'notes/memory/user.md' })
    await tools.call('unknown_tool', {})
    expect(events).toEqual([
      'before read_file',
      'released read_file',
      'done read_file',
      'before unknown_tool',
      'released unknown_tool',
      'done unknown_tool',
    ])
  })

  it('turns an unexpected exception into TOOL_FAILED and never throws', async () => {
    const exploding: ToolDefinition<{ n: number }> = {
      name: 'explode',
      description: 'throws a plain error',
      input: z.strictObject({ n: z.number() }),
      run: async () => {
        throw new TypeError('boom')
      },
    }
    const tools = createToolSet(world().context, { tools: [exploding] })
    const result = await tools.call('explode', { n: 1 })
    expect(result).toEqual({ ok: false, code: 'TOOL_FAILED', content: 'explode failed unexpectedly: boom' })
    expect(tools.calls()).toMatchObject([{ name: 'explode', ok: false, code: 'TOOL_FAILED' }])
  })

  it('refuses calls past maxCalls and calls on an aborted signal', async () => {
    const tools = createToolSet(world().context, { maxCalls: 2 })
    await tools.call('list_files', {})
    const aborted = new AbortController()
    aborted.abort()
    expect(await tools.call('list_files', {}, aborted.signal)).toMatchObject({
      ok: false,
      code: 'TOOL_ABORTED',
    })
    const over = await tools.call('list_files', {})
    expect(over).toMatchObject({ ok: false, code: 'TOOL_CALL_LIMIT' })
    expect(over.content).toMatch(/limit of 2 tool calls/)
  })

  it('lists every file written, once, as absolute paths; reads and refusals add nothing', async () => {
    const w = world()
    const tools = createToolSet(w.context)
    await tools.call('write_file', { path: 'notes/memory/project.md', content: '# P\n' })
    await tools.call('edit_file', { path: 'notes/memory/user.md', old_string: 'tea', new_string: 'coffee' })
    await tools.call('edit_file', {
      path: 'notes/memory/project.md',
      old_string: '# P',
      new_string: '# Project',
    })
    await tools.call('read_file', { path: 'notes/memory/user.md' })
    await tools.call('write_file', { path: 'notes/other.md', content: 'x' })
    expect(tools.changedFiles()).toEqual([
      join(w.dir, 'notes/memory/project.md'),
      join(w.dir, 'notes/memory/user.md'),
    ])
  })

  it('shortens long strings in recorded inputs', async () => {
    const tools = createToolSet(world().context)
    await tools.call('write_file', { path: 'notes/memory/project.md', content: 'y'.repeat(2000) })
    const recorded = tools.calls()[0]?.input as { content: string }
    expect(recorded.content).toBe(`${'y'.repeat(500)}… (+1500 chars)`)
  })

  it('exports the same tools it offers by default', () => {
    expect(ALL_TOOLS.map((tool) => tool.name)).toEqual(EXPECTED_TOOLS)
  })
})
