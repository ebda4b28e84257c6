// `npm run bench`: runs every bench/*.bench.ts side by side in one process and prints their ratios.
import { readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { join } from 'node:path'

/** One measured comparison, printed as a row. */
export interface BenchRow {
  name: string
  /** e.g. "1M-message DB" */
  subject: string
  baseline: string
  measured: string
  ratio: number
  target?: string
  notes?: string
}

export type BenchModule = { run(filter?: string): Promise<BenchRow[]> }

const here = fileURLToPath(new URL('.', import.meta.url))
const filter = process.argv[2]
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => !filter || name.includes(filter))
  .sort()

const rows: BenchRow[] = []
for (const file of files) {
  const started = Date.now()
  process.stdout.write(`running ${file} … `)
  const module = (await import(pathToFileURL(join(here, file)).href)) as BenchModule
  const result = await module.run()
  rows.push(...result)
  process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  for (const row of result) printRow(row)
}

function printRow(row: BenchRow): void {
  const target = row.target ? ` (target ${row.target})` : ''
  console.log(`  ${row.name}: ${row.subject}`)
  console.log(`    ${row.measured} vs ${row.baseline} → ratio ${row.ratio.toFixed(3)}${target}`)
  if (row.notes) console.log(`    ${row.notes}`)
}

console.log(`\n${rows.length} comparisons from ${files.length} bench files`)
