import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MEMORY_SKELETONS } from '../../../src/model/offline/skeletons.js'
import { MEMORY_FILES } from '../../../src/notes/paths.js'
import { TEMPLATE_DIR } from './world.js'

describe('notes-template', () => {
  it.each(MEMORY_FILES)('%s ships the bytes the engine falls back to', (name) => {
    expect(readFileSync(join(TEMPLATE_DIR, name), 'utf8')).toBe(MEMORY_SKELETONS[name])
  })

  it.each(MEMORY_FILES)('%s opens with a title and a short explanation of its role', (name) => {
    const [title, blank, explanation] = MEMORY_SKELETONS[name].split('\n')
    expect(title).toMatch(/^# \S/)
    expect(blank).toBe('')
    expect(explanation).toMatch(/^> \S.{40,}/)
  })
})
