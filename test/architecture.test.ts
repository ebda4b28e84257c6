// The dependency direction docs/ARCHITECTURE.md draws, checked from the imports of every file in src/.
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const SRC = join(ROOT, 'src')

/** Rows of the picture, top first: each row's units (`dream/`, `create.ts`). */
function readLayers(markdown: string): string[][] {
  const block = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(markdown)?.[1]
  if (!block) throw new Error('docs/ARCHITECTURE.md has no layers block')
  return block
    .split('\n')
    .map((line) => (line.split('—')[0] ?? '').match(/\b[a-z][a-z-]*(?:\/|\.ts)(?=\s|$)/g) ?? [])
    .filter((units) => units.length > 0)
}

/** `dream/run.ts` → `dream/`; `create.ts` → `create.ts`. */
function unitOf(file: string): string {
  const [head, ...rest] = file.split('/')
  return rest.length > 0 ? `${head}/` : (head as string)
}

/** Every relative import (static, type-only, re-export, dynamic) of a file, as src-relative paths. */
function importsOf(file: string, text: string): string[] {
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] as string)
  return specifiers.map((spec) =>
    posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'),
  )
}

function readSources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) readSources(path, out)
    else if (entry.name.endsWith('.ts'))
      out.set(relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8'))
  }
  return out
}

interface Violation {
  file: string
  imports: string
  why: string
}

/** Imports that point up the picture or sideways within a row, and units the picture does not place. */
function checkDirection(sources: Map<string, string>, layers: string[][]): Violation[] {
  const rank = new Map(layers.flatMap((units, row) => units.map((unit) => [unit, row] as const)))
  const violations: Violation[] = []
  for (const [file, text] of sources) {
    const from = unitOf(file)
    const fromRow = rank.get(from)
    if (fromRow === undefined) {
      violations.push({ file, imports: '', why: `${from} is not in the picture` })
      continue
    }
    for (const target of importsOf(file, text)) {
      const to = unitOf(target)
      if (to === from) continue
      const toRow = rank.get(to)
      if (toRow === undefined) violations.push({ file, imports: target, why: `${to} is not in the picture` })
      else if (toRow < fromRow) violations.push({ file, imports: target, why: `${to} is above ${from}` })
      else if (toRow === fromRow) violations.push({ file, imports: target, why: `${to} is beside ${from}` })
    }
  }
  return violations
}

/** Each import cycle between files, as the files on it. */
function findCycles(sources: Map<string, string>): string[][] {
  const edges = new Map(
    [...sources].map(([file, text]) => [file, importsOf(file, text).filter((t) => sources.has(t))]),
  )
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)))
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of edges.keys()) if (!state.has(file)) visit(file)
  return cycles
}

const layers = readLayers(readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8'))

describe('the dependency direction of docs/ARCHITECTURE.md', () => {
  it('places every folder and root file of src/, each once', () => {
    const units = layers.flat()
    expect(new Set(units).size).toBe(units.length)
    const present = new Set([...readSources(SRC).keys()].map(unitOf))
    expect([...present].filter((unit) => !units.includes(unit))).toEqual([])
  })

  it('holds for every import in src/', () => {
    expect(checkDirection(readSources(SRC), layers)).toEqual([])
  })

  it('keeps create.ts to wiring: under 120 lines (behaviour belongs in app/ and below)', () => {
    expect(readFileSync(join(SRC, 'create.ts'), 'utf8').trimEnd().split('\n').length).toBeLessThan(120)
  })

  it('finds no import cycle between files of src/', () => {
    expect(findCycles(readSources(SRC))).toEqual([])
  })

  it.each([
    [
      'an upward import',
      'ledger/x.ts',
      "import type { DreamDeps } from '../dream/deps.js'",
      'dream/ is above ledger/',
    ],
    ['a sideways import', 'model/x.ts', "export { a } from '../ledger/a.js'", 'ledger/ is beside model/'],
    [
      'a dynamic upward import',
      'notes/x.ts',
      "const m = await import('../app/status.js')",
      'app/ is above notes/',
    ],
    [
      'an unplaced folder',
      'newthing/x.ts',
      "import { a } from '../db/a.js'",
      'newthing/ is not in the picture',
    ],
  ])('reports %s', (_name, file, line, why) => {
    const violations = checkDirection(new Map([[file, `${line}\n`]]), layers)
    expect(violations.map((v) => v.why)).toEqual([why])
  })

  it('reports a cycle between two files', () => {
    const sources = new Map([
      ['dream/a.ts', "import { b } from './b.js'"],
      ['dream/b.ts', "import type { A } from './a.js'"],
    ])
    expect(findCycles(sources)).toEqual([['dream/a.ts', 'dream/b.ts']])
  })
})
