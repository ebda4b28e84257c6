import { describe, expect, it } from 'vitest'
import { chunkText } from '../../src/fts/chunk.js'

describe('chunkText', () => {
  it('keeps a short note in one chunk starting at line 1', () => {
    expect(chunkText('# A\nline two\r\n')).toEqual([{ startLine: 1, body: '# A\nline two\n' }])
    expect(chunkText('\n\n  \n')).toEqual([])
  })

  it('breaks at headings once a chunk has some lines, and never past 60 lines', () => {
    const section = (title: string, lines: number): string[] => [
      `## ${title}`,
      ...Array.from({ length: lines }, (_, i) => `${title} ${i}`),
    ]
    const text = [...section('one', 9), ...section('two', 2), ...section('three', 130)].join('\n')
    const chunks = chunkText(text)
    expect(chunks.map((chunk) => chunk.startLine)).toEqual([1, 11, 71, 131])
    expect(chunks[1]?.body.split('\n')[0]).toBe('## two')
    expect(chunks.every((chunk) => chunk.body.split('\n').length <= 60)).toBe(true)
    // Every line lands in exactly one chunk, at the line number it claims.
    const lines = text.split('\n')
    for (const chunk of chunks) {
      chunk.body.split('\n').forEach((line, i) => expect(lines[chunk.startLine - 1 + i]).toBe(line))
    }
  })
})
