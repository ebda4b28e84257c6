// Memory quality on LoCoMo (`npm run bench -- memory`): runs ../shared/eval/memory-quality.sh (init, convert,
// one offline dream, score) and adds a fair baseline. The script's own baseline keeps a *fraction of messages*
// per day equal to our byte share, which on these chats comes to about twice our bytes; here the TF-IDF
// baseline is searched (bisection on that fraction) until its notes are the same size as ours in bytes.
// The conversations are CC BY-NC and are not shipped: without ../shared/eval this bench says it skipped.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dreamNightly } from './fixtures/nightly-dreams.js'
import type { BenchRow } from './run.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const EVAL = join(ROOT, '..', 'shared', 'eval')
const CONVERSATIONS = ['conv-30', 'conv-41', 'conv-42', 'conv-43', 'conv-44']

interface Score {
  retention: { overall: { ratio_slices: number } }
  recall_at_5: { overall: { ratio_slices: number } }
  compression: { notes_bytes_without_comments: number; transcript_bytes: number; memory_bytes: number }
}

const read = (file: string): Score => JSON.parse(readFileSync(file, 'utf8')) as Score
const share = (score: Score): number =>
  score.compression.notes_bytes_without_comments / score.compression.transcript_bytes

function scoreNotes(ws: string, notes: string, out: string): Score {
  const qa = join(ws, '.dreamlane', 'qa.json')
  const db = join(ws, '.dreamlane', 'messages.db')
  execFileSync(
    'node',
    [join(EVAL, 'score.mjs'), '--notes', notes, '--qa', qa, '--db', db, '--json', out, '--quiet'],
    {
      env: { ...process.env, EVAL_DEPS: ROOT },
    },
  )
  return read(out)
}

/** The TF-IDF baseline at the same notes bytes as ours (within 2%), by bisection on its message fraction. */
function sameSizeBaseline(ws: string, targetShare: number): Score {
  let low = 0.01
  let high = 1
  let best: Score | null = null
  for (let step = 0; step < 12; step++) {
    const fraction = (low + high) / 2
    const dir = join(ws, `fair-${step}`)
    mkdirSync(dir, { recursive: true })
    execFileSync('python3', [
      join(EVAL, 'baseline-tfidf.py'),
      join(ws, '.dreamlane', 'messages.db'),
      dir,
      String(fraction),
    ])
    const score = scoreNotes(ws, dir, join(dir, 'score.json'))
    if (!best || Math.abs(share(score) - targetShare) < Math.abs(share(best) - targetShare)) best = score
    if (Math.abs(share(score) - targetShare) / targetShare < 0.02) break
    if (share(score) > targetShare) high = fraction
    else low = fraction
  }
  return best as Score
}

export async function run(): Promise<BenchRow[]> {
  if (!existsSync(join(EVAL, 'memory-quality.sh'))) {
    console.log(`  memory: skipped — ${EVAL} is not there (the LoCoMo data is not shipped with dreamlane)`)
    return []
  }
  const out = mkdtempSync(join(tmpdir(), 'dreamlane-mq-'))
  try {
    const table = execFileSync('bash', [join(EVAL, 'memory-quality.sh'), ...CONVERSATIONS], {
      cwd: ROOT,
      env: { ...process.env, KEEP: '1', OUT: out },
      encoding: 'utf8',
    })
    console.log(table.replace(/^/gm, '  '))
    const rows: { conv: string; ours: Score; fair: Score; nightly: Score; nights: number }[] = []
    for (const conv of CONVERSATIONS) {
      const ws = join(out, conv)
      const ours = read(join(ws, 'score.json'))
      const fair = sameSizeBaseline(ws, share(ours))
      const nightlyDir = join(ws, 'nightly')
      const nights = await dreamNightly(join(ws, '.dreamlane', 'messages.db'), nightlyDir)
      const nightly = scoreNotes(ws, nightlyDir, join(nightlyDir, 'score.json'))
      rows.push({ conv, ours, fair, nightly, nights })
    }
    const mean = (pick: (row: (typeof rows)[number]) => number): number =>
      rows.reduce((total, row) => total + pick(row), 0) / rows.length
    const retention = mean((row) => row.ours.retention.overall.ratio_slices)
    const fairRetention = mean((row) => row.fair.retention.overall.ratio_slices)
    const recall = mean((row) => row.ours.recall_at_5.overall.ratio_slices)
    const fairRecall = mean((row) => row.fair.recall_at_5.overall.ratio_slices)
    const size = mean((row) => share(row.ours))
    const fairSize = mean((row) => share(row.fair))
    const memory = mean((row) => row.ours.compression.memory_bytes / row.ours.compression.transcript_bytes)
    const nightlyRetention = mean((row) => row.nightly.retention.overall.ratio_slices)
    const nightlyRecall = mean((row) => row.nightly.recall_at_5.overall.ratio_slices)
    const nightlySize = mean((row) => share(row.nightly))
    const nights = rows.reduce((total, row) => total + row.nights, 0)
    const pct = (value: number): string => `${(100 * value).toFixed(1)}%`
    for (const row of rows) {
      console.log(
        `  ${row.conv}: ours ${row.ours.retention.overall.ratio_slices.toFixed(2)} at ${pct(share(row.ours))}` +
          ` · same-bytes baseline ${row.fair.retention.overall.ratio_slices.toFixed(2)} at ${pct(share(row.fair))}` +
          ` · nightly ${row.nightly.retention.overall.ratio_slices.toFixed(2)} at ${pct(share(row.nightly))}`,
      )
    }
    const subject = `LoCoMo ${CONVERSATIONS.join(', ')}: one offline dream each, mean of slice-ceiling ratios`
    return [
      {
        name: 'memory: retention vs a TF-IDF extract of the same bytes',
        subject,
        baseline: `${fairRetention.toFixed(2)} baseline at ${pct(fairSize)} of transcript bytes`,
        measured: `${retention.toFixed(2)} dreamlane at ${pct(size)} (memory files ${pct(memory)})`,
        ratio: retention / fairRetention,
        target: 'retention ≥ 0.70, notes ≤ 25%, memory ≤ 8%, ≥ 1.3× the baseline',
      },
      {
        name: 'memory: recall@5 vs a TF-IDF extract of the same bytes',
        subject,
        baseline: `${fairRecall.toFixed(2)} baseline`,
        measured: `${recall.toFixed(2)} dreamlane`,
        ratio: recall / fairRecall,
        target: 'recall@5 ≥ 0.55',
      },
      {
        name: 'memory: dreamed night by night vs in one dream',
        subject: `the same conversations, ${nights} nightly dreams in all (each over its day and the one before)`,
        baseline: `${retention.toFixed(2)} retention, ${recall.toFixed(2)} recall@5 at ${pct(size)} in one dream`,
        measured: `${nightlyRetention.toFixed(2)} retention, ${nightlyRecall.toFixed(2)} recall@5 at ${pct(nightlySize)}`,
        ratio: nightlyRetention / retention,
        target: 'about 1× (the notes a user gets night by night hold what one long dream holds)',
      },
    ]
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}
