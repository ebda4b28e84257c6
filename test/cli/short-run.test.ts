import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const MODULE = fileURLToPath(new URL('../../src/cli/short-run.ts', import.meta.url))

/** Whether V8 optimises a function it is told to, in a fresh process that first calls skipOptimisingCompilers or not. */
async function optimisesAfter(skip: boolean): Promise<boolean> {
  const script = `
    const { skipOptimisingCompilers } = await import(${JSON.stringify(MODULE)});
    if (${skip}) skipOptimisingCompilers();
    function add(a, b) { return a + b };
    %PrepareFunctionForOptimization(add); add(1, 2); add(3, 4);
    %OptimizeFunctionOnNextCall(add); add(5, 6);
    console.log((%GetOptimizationStatus(add) & 16) !== 0);`
  return JSON.parse(await runWithNatives(script)) as boolean
}

/** Runs an ES module script in a fresh node with V8's natives syntax; its stdout, trimmed. */
async function runWithNatives(script: string): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [
    '--allow-natives-syntax',
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    script,
  ])
  expect(stderr).toBe('') // an unknown flag would print "unrecognized flag" on every run
  return stdout.trim()
}

describe('skipOptimisingCompilers', () => {
  it('stops V8 from optimising code for the rest of the process, which it otherwise does', async () => {
    expect(await optimisesAfter(false)).toBe(true)
    expect(await optimisesAfter(true)).toBe(false)
  })

  it('skipOptimisingCompilersOnce waits for what is still loading, failed or not, then skips', async () => {
    const script = `
      const { skipOptimisingCompilersOnce } = await import(${JSON.stringify(MODULE)});
      const optimises = () => {
        const add = new Function('a', 'b', 'return a + b');
        %PrepareFunctionForOptimization(add); add(1, 2); add(3, 4);
        %OptimizeFunctionOnNextCall(add); add(5, 6);
        return (%GetOptimizationStatus(add) & 16) !== 0;
      };
      let loaded;
      const loading = new Promise((resolve) => (loaded = resolve));
      const skipped = skipOptimisingCompilersOnce([loading, Promise.reject(new Error('a thread that failed'))]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = optimises();
      loaded();
      await skipped;
      console.log(JSON.stringify([before, optimises()]));`
    expect(JSON.parse(await runWithNatives(script))).toEqual([true, false])
  })
})
