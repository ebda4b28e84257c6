// CLI start-up: whole-process CPU time (user + sys) of `dreamlane --help`, `status` and `mcp` vs bare `node -e 0`.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow } from './run.js'
import { buildIfStale } from './build.js'
import { median } from './stats.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'dreamlane.js')
const WORKSPACE = join(ROOT, '.bench-tmp', 'startup-ws')
const RUNS = 11
/** Preloaded into every measured process: at exit it appends its own CPU time (µs, user + sys) to a file. */
const REPORT_CPU =
  'data:text/javascript,import{appendFileSync}from"node:fs";process.on("exit",()=>{const u=process.cpuUsage();' +
  'appendFileSync(process.env.BENCH_CPU_FILE,`${u.user+u.system}\\n`)})'

export async function run(): Promise<BenchRow[]> {
  buildIfStale('startup')
  rmSync(WORKSPACE, { recursive: true, force: true })
  mkdirSync(WORKSPACE, { recursive: true })
  cpuMs([BIN, '--workspace', WORKSPACE, 'init'])
  // Interleaved, so a load spike from elsewhere hits all three alike; medians of RUNS each.
  const node: number[] = []
  const help: number[] = []
  const status: number[] = []
  const mcp: number[] = []
  const mcpWall: number[] = []
  for (let i = 0; i < RUNS; i++) {
    node.push(cpuMs(['-e', '0']))
    help.push(cpuMs([BIN, '--help']))
    status.push(cpuMs([BIN, '--workspace', WORKSPACE, 'status']))
    const handshake = await mcpHandshake()
    mcp.push(handshake.cpuMs)
    mcpWall.push(handshake.wallMs)
  }
  const baseline = median(node)
  const row = (name: string, samples: number[]): BenchRow => ({
    name,
    subject: 'whole process, user + sys CPU (process.cpuUsage at exit)',
    baseline: `node -e 0 ${baseline.toFixed(0)} ms`,
    measured: `${median(samples).toFixed(0)} ms`,
    ratio: median(samples) / baseline,
    target: '≤ 3',
    notes: `median of ${RUNS} runs, interleaved with the baseline`,
  })
  return [
    row('dreamlane --help', help),
    row('dreamlane status (fresh workspace)', status),
    {
      ...row('dreamlane mcp: spawn → initialize answered → stdin closed → exit', mcp),
      // The budget is absolute (300 ms to start), so the ratio is against it, not against bare node.
      baseline: `300 ms budget (node -e 0 ${baseline.toFixed(0)} ms)`,
      ratio: median(mcp) / 300,
      target: '≤ 1',
      notes: `wall clock from spawn to the initialize answer: median ${median(mcpWall).toFixed(0)} ms; ${RUNS} runs`,
    },
  ]
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`

/** `dreamlane mcp` answering one initialize: wall time until the answer, CPU of the whole process. */
async function mcpHandshake(): Promise<{ cpuMs: number; wallMs: number }> {
  const file = join(ROOT, '.bench-tmp', `cpu-mcp-${process.pid}.txt`)
  rmSync(file, { force: true })
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', REPORT_CPU, BIN, '--workspace', WORKSPACE, 'mcp'], {
    cwd: WORKSPACE,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', BENCH_CPU_FILE: file },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.stdin.write(INITIALIZE)
  let wallMs = 0
  let out = ''
  for await (const chunk of child.stdout) {
    out += String(chunk)
    if (!out.includes('\n')) continue
    wallMs = performance.now() - started
    if (!out.includes('"serverInfo"')) throw new Error(`startup bench: mcp answered ${out}`)
    child.stdin.end()
    break
  }
  const code = await exited
  if (code !== 0) throw new Error(`startup bench: dreamlane mcp exited ${code}`)
  const micros = Number(readFileSync(file, 'utf8').trim())
  rmSync(file)
  return { cpuMs: micros / 1000, wallMs }
}

/** CPU milliseconds one `node …args` process used, start to exit. */
function cpuMs(args: string[]): number {
  const file = join(ROOT, '.bench-tmp', `cpu-${process.pid}.txt`)
  rmSync(file, { force: true })
  const child = spawnSync(process.execPath, ['--import', REPORT_CPU, ...args], {
    cwd: WORKSPACE,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', BENCH_CPU_FILE: file },
    encoding: 'utf8',
  })
  if (child.status !== 0)
    throw new Error(`startup bench: node ${args.join(' ')} exited ${child.status}\n${child.stderr}`)
  const micros = Number(readFileSync(file, 'utf8').trim())
  rmSync(file)
  return micros / 1000
}
