// `dreamlane demo`: a sample workspace, `/dream 7` with the offline engine, each step printed, the summary shown.
import { existsSync } from 'node:fs'
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import type { Command } from 'commander'
import { workspacePaths } from '../../notes/paths.js'
import { UsageError } from '../../errors.js'
import { EXIT } from '../exit-codes.js'
import { cliLogger, globalOptions } from '../context.js'
import { parseCount } from '../commander.js'
import { dreamProgressPrinter } from '../dream-progress.js'

const MARKER = 'demo.json'

async function prepareDir(dir: string, fresh: boolean): Promise<'new' | 'reused' | 'recreated'> {
  if (!existsSync(dir)) return 'new'
  const marker = join(dir, '.dreamlane', MARKER)
  if (!existsSync(marker)) {
    const entries = await readdir(dir)
    if (entries.length === 0) return 'new'
    throw new UsageError(`${dir} exists and is not a dreamlane demo workspace; pick another --dir`)
  }
  if (!fresh) return 'reused'
  await rm(dir, { recursive: true, force: true })
  return 'recreated'
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'create a sample workspace and run a real dream on it with the offline engine (no API key needed)',
    )
    .option('--dir <path>', 'where to create the demo workspace', 'dreamlane-demo')
    .option('-d, --days <n>', 'dream window in days', parseCount('--days'), 7)
    .option('--fresh', 'delete a previous demo workspace at --dir and start over')
    .action(async (options: { dir: string; days: number; fresh?: boolean }, command: Command) => {
      const { createDreamlane } = await import('../../create.js')
      const { resolveConfig } = await import('../../config/resolve.js')
      const { initWorkspace } = await import('../../notes/init-workspace.js')
      const { generateSample } = await import('../../sample/generate.js')
      const started = performance.now()
      const tz = globalOptions(command).tz
      const dir = resolve(options.dir)
      const how = await prepareDir(dir, Boolean(options.fresh))
      const config = resolveConfig({
        env: process.env,
        flags: { workspace: dir, ...(tz ? { timezone: tz } : {}) },
      })
      const paths = workspacePaths(config)
      const say = (line: string) => console.log(line)
      say(
        `dreamlane demo — workspace ${dir} (${how === 'reused' ? 'reusing the previous demo; --fresh starts over' : 'new'})`,
      )
      say(`time zone ${config.timezone}; engine: offline (deterministic, no API key)\n`)

      await initWorkspace(paths)
      let mainChat = 'web:main'
      if (how !== 'reused') {
        const sample = await generateSample({
          file: paths.messagesDb,
          now: new Date(),
          timeZone: config.timezone,
        })
        mainChat = sample.mainChat
        await writeFile(
          join(paths.dataDir, MARKER),
          JSON.stringify({ mainChat, createdAt: new Date().toISOString() }),
        )
        say(
          `sample history: ${sample.messages} messages in ${sample.chats} chats over ${sample.firstDay} .. ${sample.lastDay}`,
        )
      } else {
        mainChat = (JSON.parse(await readFile(join(paths.dataDir, MARKER), 'utf8')) as { mainChat: string })
          .mainChat
      }

      // Progress starts while the reply is being written; hold it until the reply is on screen.
      const held: string[] = []
      let replied = false
      const progress = (line: string) => (replied ? say(line) : held.push(line))
      const dreamlane = createDreamlane({
        config,
        logger: await cliLogger(),
        onEvent: dreamProgressPrinter(progress),
      })
      try {
        await dreamlane.recover()
        say(`\nyou › /dream ${options.days}`)
        say(`dreamlane › ${await dreamlane.handleChatInput(mainChat, `/dream ${options.days}`)}\n`)
        replied = true
        held.splice(0).forEach(say)
        await dreamlane.close()
      } catch (error) {
        await dreamlane.close()
        throw error
      }
      const inspect = createDreamlane({ config, logger: await cliLogger() })
      const [run] = inspect.listRuns({ limit: 1 })
      await inspect.close()
      if (!run) throw new Error('the demo dream left no run record')
      say(`\n${run.summary ?? ''}\n`)
      const notesBytes = await treeBytes(paths.notes)
      const transcriptBytes =
        Buffer.byteLength(JSON.stringify(run.transcript)) + Buffer.byteLength(JSON.stringify(run.toolCalls))
      say(
        `notes: ${paths.notes} (${(notesBytes / 1024).toFixed(1)} KB; transcript + tool calls kept in the run record: ${(transcriptBytes / 1024).toFixed(1)} KB)`,
      )
      for (const file of run.changedFiles) say(`  changed ${relative(dir, file)}`)
      say(`\nlook around:  cat ${relative(process.cwd(), join(paths.memory, 'MEMORY.md')) || 'MEMORY.md'}`)
      // npx finds the package's own bin in a clone; a global install can drop it.
      say(
        `              npx dreamlane --workspace ${relative(process.cwd(), dir) || '.'} runs show ${run.id}`,
      )
      say(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      if (run.status === 'failed') process.exitCode = EXIT.dreamFailed
    })
}
