// The assistant host: `chat:<jid>` lane turns that store the message, answer a slash command or from memory, store the reply.
import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import { DREAMLANE_SENDER, DREAM_CHANNEL_PREFIX, type MessagesDb } from '../db/messages.js'
import type { StateDb } from '../db/state.js'
import { DreamlaneError, errorMessage } from '../errors.js'
import type { ModelProvider } from '../model/provider.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { LaneManager } from '../queue/lanes.js'
import { dayWindow } from '../time/local-day.js'
import { readFileTool, listFilesTool, grepNotesTool } from '../tools/note-tools.js'
import { searchWorkspaceTool } from '../tools/search-tools.js'
import { createLookupToolSet } from '../tools/tool-set.js'
import type { ToolSet } from '../tools/types.js'
import { recentChatMessages, storeChatMessage, type ChatMessage } from './chat-message.js'
import { answerWithModel } from './model-answer.js'
import { answerFromNotes } from './quote-answer.js'
import type { RecallSink } from './recall-hook.js'

export type { ChatMessage }

/** Longest message accepted, in characters. */
export const MAX_MESSAGE_CHARS = 8_000
export const MAX_JID_CHARS = 200

/** Who wrote the reply: a slash command, the quoting offline answerer, or the model. */
export type ReplyEngine = 'command' | 'quote' | 'model'

export interface ChatTurn {
  message: ChatMessage
  reply: ChatMessage
  engine: ReplyEngine
  /** Why the reply is not what was asked for (e.g. the model failed and notes were quoted), or null. */
  note: string | null
  /** From `send()` to the turn starting on its lane: what a dream must not make worse. */
  startLatencyMs: number
  durationMs: number
}

/** What the assistant needs from a dreamlane; declared here so chat/ imports nothing above it. */
export interface AssistantHost {
  readonly config: ResolvedConfig
  readonly paths: WorkspacePaths
  readonly messages: MessagesDb
  readonly state: StateDb
  readonly lanes: Pick<LaneManager, 'runChat'>
  /** The reply to a slash command, or null when the text is not one. */
  handleChatInput(chatJid: string, text: string): Promise<string | null>
}

export interface AssistantOptions {
  dreamlane: AssistantHost
  clock: Clock
  /** The model for replies (see selectChatProvider); absent or the offline engine → notes are quoted instead. */
  provider?: ModelProvider
  /** Told each stored message (user and reply), e.g. to push it to open web pages. */
  onMessage?: (message: ChatMessage) => void
  /** Told each interactive search, for recall tracking. */
  onRecall?: RecallSink
  log?: Logger
}

export interface SendOptions {
  senderName?: string
  signal?: AbortSignal
}

export interface Assistant {
  /** One chat turn; turns of the same chat run one after another. */
  send(chatJid: string, text: string, options?: SendOptions): Promise<ChatTurn>
  /** The newest `limit` messages of a chat, oldest first. */
  history(chatJid: string, limit?: number): ChatMessage[]
}

export function createAssistant(options: AssistantOptions): Assistant {
  const { dreamlane, clock } = options
  const usesModel = options.provider !== undefined && options.provider.name !== 'offline'

  function history(chatJid: string, limit = 200): ChatMessage[] {
    return recentChatMessages(dreamlane.messages, chatJid, limit, clock.now())
  }

  // Newest timestamp this host wrote per chat: a message never sorts before the previous one, even when the
  // clock is frozen (tests) or steps back (NTP).
  const lastWritten = new Map<string, number>()

  function store(
    chatJid: string,
    role: 'user' | 'assistant',
    content: string,
    sender: string,
    senderName: string,
  ): ChatMessage {
    const at = Math.max(clock.now().getTime(), (lastWritten.get(chatJid) ?? -Infinity) + 1)
    lastWritten.set(chatJid, at)
    const timestamp = new Date(at).toISOString()
    const message = storeChatMessage(dreamlane.messages, {
      chatJid,
      role,
      sender,
      senderName,
      content,
      timestamp,
    })
    options.onMessage?.(message)
    return message
  }

  function readOnlyTools(chatJid: string): ToolSet {
    return createLookupToolSet(
      dreamlane,
      clock,
      (query, hits) => options.onRecall?.({ chatJid, query, hits, at: clock.now() }),
      // Chat turns only look things up: writing notes is a dream's job.
      { tools: [readFileTool, listFilesTool, grepNotesTool, searchWorkspaceTool], maxCalls: 8 },
    )
  }

  async function answer(
    chatJid: string,
    text: string,
    signal: AbortSignal,
  ): Promise<{ text: string; engine: ReplyEngine; note: string | null }> {
    const tools = readOnlyTools(chatJid)
    if (!usesModel || !options.provider)
      return { text: await answerFromNotes(text, tools, signal), engine: 'quote', note: null }
    const provider = options.provider
    try {
      // Model-call slots are the provider's to take per request (see selectChatProvider), never held per turn.
      const result = await answerWithModel({
        provider,
        question: text,
        history: history(chatJid, 13).slice(0, -1),
        chatJid,
        turnId: `chat-${randomBytes(4).toString('hex')}`,
        paths: dreamlane.paths,
        window: dayWindow(clock.now(), dreamlane.config.dream.defaultDays, dreamlane.config.timezone),
        clock,
        tools,
        signal,
      })
      if (result.text.trim()) return { text: result.text.trim(), engine: 'model', note: null }
      const note = `the ${provider.name} model gave no answer (${result.stop})`
      return { text: await answerFromNotes(text, tools, signal), engine: 'quote', note }
    } catch (error) {
      options.log?.warn({ err: error, chatJid }, 'chat model turn failed; quoting notes instead')
      const note = `the ${provider.name} model failed: ${errorMessage(error)}`
      return { text: await answerFromNotes(text, readOnlyTools(chatJid), signal), engine: 'quote', note }
    }
  }

  async function send(chatJid: string, text: string, sendOptions: SendOptions = {}): Promise<ChatTurn> {
    checkInput(chatJid, text)
    const requested = performance.now()
    const signal = sendOptions.signal ?? new AbortController().signal
    return dreamlane.lanes.runChat(chatJid, async () => {
      const started = performance.now()
      const message = store(chatJid, 'user', text, 'user', sendOptions.senderName ?? 'You')
      const command = await dreamlane.handleChatInput(chatJid, text)
      const result =
        command !== null
          ? { text: command, engine: 'command' as const, note: null }
          : await answer(chatJid, text, signal)
      // Command replies are about the notes, not the user: the dreamlane sender keeps dreams from reading them back.
      const sender = result.engine === 'command' ? DREAMLANE_SENDER : 'assistant'
      const reply = store(
        chatJid,
        'assistant',
        result.text,
        sender,
        result.engine === 'command' ? 'Dream' : 'Assistant',
      )
      return {
        message,
        reply,
        engine: result.engine,
        note: result.note,
        startLatencyMs: started - requested,
        durationMs: performance.now() - started,
      }
    })
  }

  return { send, history }
}

/** The host's own guard; the HTTP layer validates first and gives the same reasons. */
function checkInput(chatJid: string, text: string): void {
  if (chatJid.trim() === '' || chatJid.length > MAX_JID_CHARS) {
    throw new DreamlaneError('REQUEST_INVALID', `chat id must be 1 to ${MAX_JID_CHARS} characters`)
  }
  if (chatJid.startsWith(DREAM_CHANNEL_PREFIX)) {
    throw new DreamlaneError(
      'REQUEST_INVALID',
      `chat ids starting with "${DREAM_CHANNEL_PREFIX}" are reserved for dream channels`,
    )
  }
  if (text.trim() === '' || text.length > MAX_MESSAGE_CHARS) {
    throw new DreamlaneError('REQUEST_INVALID', `message text must be 1 to ${MAX_MESSAGE_CHARS} characters`)
  }
}
