// `dreamlane chat [--jid]`: a terminal REPL on the same assistant host as the web page (memory answers, /dream).
import { createInterface } from 'node:readline/promises'
import type { Command } from 'commander'
import type { Assistant } from '../../chat/assistant.js'
import { systemClock } from '../../clock.js'
import { DreamlaneError, errorMessage } from '../../errors.js'
import { cliContext, cliLogger } from '../context.js'
import { dreamProgressPrinter } from '../dream-progress.js'

/** The web page's default chat, so the terminal and the browser continue one conversation. */
const DEFAULT_JID = 'web:main'
const QUIT = new Set(['/quit', '/exit'])

export function registerChat(program: Command): void {
  program
    .command('chat')
    .description(
      'chat with the assistant in the terminal: answers from memory, /dream to consolidate, /quit to leave',
    )
    .option('--jid <jid>', 'chat id to talk in', DEFAULT_JID)
    .action(async (options: { jid: string }, command: Command) => {
      const ctx = await cliContext(command)
      const { openDreamlane } = await import('../../create.js')
      const { createAssistant } = await import('../../chat/assistant.js')
      const { selectChatProvider } = await import('../../chat/chat-provider.js')
      const { recallSinkFor } = await import('../../chat/recall-hook.js')
      const out = (line: string): void => void process.stdout.write(`${line}\n`)
      const log = await cliLogger()
      const dreamlane = openDreamlane({
        // Chat turns are answered on this event loop: a `/dream` runs on its own thread.
        dreamThread: true,
        config: ctx.config,
        messagesDbWait: ctx.dbWait,
        logger: log,
        onEvent: dreamProgressPrinter((line) => process.stderr.write(`${line}\n`)),
        onSummary: (summary) => out(`\ndream › ${summary.text}\n`),
      })
      const assistant = createAssistant({
        dreamlane,
        clock: systemClock,
        log,
        provider: selectChatProvider(dreamlane, process.env, log),
        onRecall: recallSinkFor(dreamlane, systemClock, log),
      })
      const lines = createInterface({
        input: process.stdin,
        output: process.stdout,
        terminal: process.stdin.isTTY,
      })
      let aborting = false
      lines.on('SIGINT', () => {
        // Ctrl-C: stop now, cancelling a running dream (its run ends `cancelled`, notes stay consistent).
        aborting = true
        lines.close()
      })
      if (process.stdin.isTTY)
        out(
          `dreamlane chat in ${options.jid} — answers come from your notes; /dream 7 consolidates; /quit leaves.`,
        )
      lines.setPrompt('you › ')
      lines.prompt()
      try {
        for await (const line of lines) {
          const text = line.trim()
          if (QUIT.has(text)) break
          if (text) out(await reply(assistant, options.jid, text))
          lines.prompt()
        }
      } finally {
        lines.close()
        if (dreamlane.listRuns({ status: ['queued', 'running'], limit: 1 }).length && !aborting) {
          process.stderr.write('waiting for the running dream to finish (Ctrl-C cancels it)…\n')
        }
        await (aborting ? dreamlane.shutdown() : dreamlane.close())
      }
    })
}

async function reply(assistant: Assistant, jid: string, text: string): Promise<string> {
  try {
    const turn = await assistant.send(jid, text)
    const note = turn.note ? `\n(${turn.note})` : ''
    return `${turn.engine === 'command' ? 'dream' : 'assistant'} › ${turn.reply.content}${note}`
  } catch (error) {
    // A refused message is the user's to fix; anything else is a bug for the top-level handler.
    if (error instanceof DreamlaneError) return `(${errorMessage(error)})`
    throw error
  }
}
