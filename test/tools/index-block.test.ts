// MEMORY.md through the write tools: the index block is the dream's, every line around it the user's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createToolSet } from '../../src/tools/tool-set.js'
import { makeToolWorld } from './world.js'

const TEMPLATE = readFileSync(join(import.meta.dirname, '../../notes-template/MEMORY.md'), 'utf8')
const MINE = '- my own pointer: [[notes/important]]'
const WITH_BLOCK = `${TEMPLATE}\n${MINE}\n`
const INDEX =
  '<!-- dreamlane:begin index -->\n- [user.md](user.md) — who the user is: Porto\n<!-- dreamlane:end index -->'

function indexWorld(memory: string) {
  const world = makeToolWorld({ 'notes/memory/MEMORY.md': memory })
  const read = () => readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')
  return { read, tools: createToolSet(world.context) }
}

describe("MEMORY.md's index block", () => {
  it('ships in the template the prompt names', () => {
    const prompt = readFileSync(join(import.meta.dirname, '../../skills/dream/SKILL.md'), 'utf8')
    expect(TEMPLATE).toContain('<!-- dreamlane:begin index -->\n<!-- dreamlane:end index -->')
    expect(prompt).toContain('`<!-- dreamlane:begin index -->` and `<!-- dreamlane:end index -->`')
  })

  it('may be rewritten by write_file and edit_file while the lines around it stay', async () => {
    const { tools, read } = indexWorld(WITH_BLOCK)
    const written = WITH_BLOCK.replace('<!-- dreamlane:begin index -->\n<!-- dreamlane:end index -->', INDEX)
    expect(
      await tools.call('write_file', { path: 'notes/memory/MEMORY.md', content: written }),
    ).toMatchObject({
      ok: true,
    })
    const edit = await tools.call('edit_file', {
      path: 'notes/memory/MEMORY.md',
      old_string: 'who the user is: Porto',
      new_string: 'who the user is: Lisbon (moved)',
    })
    expect(edit.ok).toBe(true)
    expect(read()).toBe(written.replace('Porto', 'Lisbon (moved)'))
  })

  it.each([
    [
      'write_file that drops a line of the user',
      { content: TEMPLATE.replace('<!-- dreamlane:end', `- x\n<!-- dreamlane:end`) },
    ],
    ['write_file that drops the block', { content: `# Memory\n\n${MINE}\n` }],
    ['edit_file on a line outside the block', { old_string: MINE, new_string: '- rewritten' }],
  ])('refuses %s and keeps the file', async (_name, input) => {
    const { tools, read } = indexWorld(WITH_BLOCK)
    const tool = 'content' in input ? 'write_file' : 'edit_file'
    const result = await tools.call(tool, { path: 'notes/memory/MEMORY.md', ...input })
    expect(result).toMatchObject({ ok: false, code: 'MEMORY_OUTSIDE_BLOCK' })
    expect(result.content).toMatch(/only the index between "<!-- dreamlane:begin index -->"/)
    expect(read()).toBe(WITH_BLOCK)
  })

  it('leaves a MEMORY.md without a block (from before it) to the loss guard', async () => {
    const old = '# Memory\n- [user](user.md): who Alex is\n'
    const { tools, read } = indexWorld(old)
    const rewrite = await tools.call('write_file', {
      path: 'notes/memory/MEMORY.md',
      content: `# Memory\n\n${INDEX}\n`,
    })
    expect(rewrite.ok).toBe(true)
    expect(read()).toBe(`# Memory\n\n${INDEX}\n`)
  })
})
