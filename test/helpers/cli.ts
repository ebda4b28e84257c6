// Runs the real CLI (bin/dreamlane.js → dist/, built by test/global-setup.ts) in a child process and captures everything.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = `${ROOT}bin/dreamlane.js`

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export function runCli(
  args: string[],
  options: {
    env?: Record<string, string>
    cwd?: string
    timeoutMs?: number
    nodeArgs?: string[]
    /** Written to stdin, which is then closed. @default stdin left open */
    input?: string
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', ...options.env },
    })
    if (options.input !== undefined) child.stdin.end(options.input)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
