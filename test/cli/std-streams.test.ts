import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
// The built module (test/global-setup.ts builds dist/), as the CLI runs it: tsx's own loader creates streams.
const STD_STREAMS = fileURLToPath(new URL('../../dist/cli/std-streams.js', import.meta.url))

/** Runs `body` (ES module text with printLine, printErrorLine, ignoreClosedReaders in scope) in a child with piped output. */
async function runWith(body: string): Promise<{ stdout: string; stderr: string }> {
  const script =
    `import { printLine, printErrorLine, ignoreClosedReaders } from ${JSON.stringify(STD_STREAMS)}\n` + body
  return run(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
}

describe('std-streams', () => {
  it('writes result and progress lines to the descriptors of piped output without creating either stream', async () => {
    const { stdout, stderr } = await runWith(`
      printErrorLine('writing backup…')
      printLine('done')
      printErrorLine(process.moduleLoadList.includes('NativeModule net') ? 'net loaded' : 'no net')
    `)
    expect(stdout).toBe('done\n')
    expect(stderr).toBe('writing backup…\nno net\n')
  })

  it('once the streams exist, sends its lines through them, in order with the stream’s own', async () => {
    const { stderr } = await runWith(`
      ignoreClosedReaders()
      process.stderr.write('one\\n')
      printErrorLine('two')
      process.stderr.write('three\\n')
    `)
    expect(stderr).toBe('one\ntwo\nthree\n')
  })
})
