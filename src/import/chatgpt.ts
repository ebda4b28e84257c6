// ChatGPT data export (conversations.json): each conversation's mapping tree → a chat along the current branch, plus branch chats.
import type { NewMessage } from '../db/messages.js'
import { deriveId } from './ids.js'
import { DreamlaneError } from '../errors.js'
import { streamJsonArray, type ArrayElement } from './json-array.js'
import type { SourceInput } from './source.js'
import type { ImportSink, ReaderOptions } from './types.js'

interface ExportNode {
  id?: string
  parent?: string | null
  children?: unknown
  message?: ExportMessage | null
}

interface ExportMessage {
  id?: string
  author?: { role?: string }
  create_time?: number | null
  update_time?: number | null
  content?: { content_type?: string; parts?: unknown[] }
  recipient?: string
  metadata?: { is_visually_hidden_from_conversation?: boolean }
}

interface Conversation {
  jid: string
  convId: string
  title: string
  mapping: Record<string, ExportNode>
  currentNode: unknown
  fallbackSeconds: number | null
}

/** One straight run of nodes to walk: the current branch from the root, or a branch from its fork. */
interface Walk {
  start: string
  /** Null for the conversation's own chat. */
  parentBranchId: string | null
  isMain: boolean
  lastSeconds: number | null
}

/** Streams conversations one at a time (memory: the largest conversation) into `sink`. */
export async function readChatGpt(
  input: SourceInput,
  sink: ImportSink,
  options: ReaderOptions,
): Promise<void> {
  const stream = await input.read()
  for await (const element of readElements(input, stream, sink)) {
    const item = `conversation ${element.index + 1}`
    if ('error' in element) {
      sink.problem({ item, reason: element.error })
      continue
    }
    const conversation = toConversation(element.value)
    if (typeof conversation === 'string') {
      sink.problem({ item, reason: conversation })
      continue
    }
    importConversation(conversation, sink, options)
  }
}

/** The array's elements; a file that is not a JSON array at all is unreadable, not a list of bad records. */
async function* readElements(
  input: SourceInput,
  stream: AsyncIterable<Uint8Array>,
  sink: ImportSink,
): AsyncGenerator<ArrayElement> {
  try {
    yield* streamJsonArray(stream, { onBytes: (bytes) => sink.advance(bytes) })
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    throw new DreamlaneError(
      'IMPORT_UNREADABLE',
      `${input.label} is not a ChatGPT conversations.json: ${error.message}`,
      { cause: error },
    )
  }
}

function toConversation(value: unknown): Conversation | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'expected a conversation object'
  const raw = value as Record<string, unknown>
  if (typeof raw.mapping !== 'object' || raw.mapping === null)
    return 'no "mapping" (not a ChatGPT conversation?)'
  const title = typeof raw.title === 'string' && raw.title.trim() !== '' ? raw.title : 'ChatGPT conversation'
  const created =
    typeof raw.create_time === 'number'
      ? raw.create_time
      : typeof raw.update_time === 'number'
        ? raw.update_time
        : null
  const given = [raw.conversation_id, raw.id].find((id): id is string => typeof id === 'string' && id !== '')
  const convId = given ?? deriveId('cg', '', [title, created ?? ''])
  const mapping = raw.mapping as Record<string, ExportNode>
  return {
    jid: `chatgpt:${convId}`,
    convId,
    title,
    mapping,
    currentNode: raw.current_node,
    fallbackSeconds: created,
  }
}

function childrenOf(node: ExportNode | undefined, mapping: Record<string, ExportNode>): string[] {
  if (!Array.isArray(node?.children)) return []
  return node.children.filter((id): id is string => typeof id === 'string' && Object.hasOwn(mapping, id))
}

/** Node ids from the root to `current_node` (the branch the user last saw). */
function currentPath(mapping: Record<string, ExportNode>, root: string, currentNode: unknown): Set<string> {
  const path = new Set<string>()
  if (typeof currentNode === 'string' && Object.hasOwn(mapping, currentNode)) {
    for (
      let id: string | null | undefined = currentNode;
      id && Object.hasOwn(mapping, id) && !path.has(id);
      id = mapping[id]?.parent
    ) {
      path.add(id)
    }
    if (path.has(root)) return path
    path.clear()
  }
  // No usable current_node: follow the newest child at every fork.
  for (let id: string | undefined = root; id && !path.has(id); id = childrenOf(mapping[id], mapping).at(-1))
    path.add(id)
  return path
}

/**
 * Walks the tree without recursion (long chats are deep): the current branch first, then each fork as a
 * branch chat holding only the nodes after the fork, its root_chat_jid the conversation's chat.
 */
function importConversation(conversation: Conversation, sink: ImportSink, options: ReaderOptions): void {
  const { mapping } = conversation
  const root = Object.keys(mapping).find((id) => {
    const parent = mapping[id]?.parent
    return typeof parent !== 'string' || !Object.hasOwn(mapping, parent)
  })
  if (root === undefined) return
  const onPath = currentPath(mapping, root, conversation.currentNode)
  const visited = new Set<string>()
  const walks: Walk[] = [
    { start: root, parentBranchId: null, isMain: true, lastSeconds: conversation.fallbackSeconds },
  ]
  let branchNumber = 0
  for (let walk = walks.shift(); walk; walk = walks.shift()) {
    const jid = walk.isMain ? conversation.jid : `${conversation.jid}:${walk.start}`
    const messages: NewMessage[] = []
    const forks: { start: string; lastSeconds: number | null }[] = []
    let lastSeconds = walk.lastSeconds
    for (let id: string | undefined = walk.start; id && !visited.has(id);) {
      visited.add(id)
      const node = mapping[id]
      const message = node?.message ? toMessage(node.message, id, jid, lastSeconds, options) : null
      if (message === 'skip') sink.skip()
      else if (message) {
        messages.push(message)
        lastSeconds = Date.parse(message.timestamp) / 1000
      }
      const children = childrenOf(node, mapping)
      const next = children.find((child) => onPath.has(child)) ?? children.at(-1)
      for (const child of children) if (child !== next) forks.push({ start: child, lastSeconds })
      id = next
    }
    let branchId = walk.parentBranchId
    if (messages.length > 0) {
      if (walk.isMain) sink.chat({ jid, name: conversation.title })
      else {
        branchId = `chatgpt-branch:${conversation.convId}:${walk.start}`
        sink.chat({
          jid,
          name: `${conversation.title} (branch ${++branchNumber})`,
          branch: {
            branchId,
            rootChatJid: conversation.jid,
            parentBranchId: walk.parentBranchId,
            createdAt: messages[0]?.timestamp,
          },
        })
      }
      for (const message of messages) sink.message(message)
    }
    for (const fork of forks) walks.push({ ...fork, parentBranchId: branchId, isMain: false })
  }
}

/** The message, 'skip' for system/tool/hidden/non-text nodes, null for the empty root node. */
function toMessage(
  message: ExportMessage,
  nodeId: string,
  chatJid: string,
  lastSeconds: number | null,
  options: ReaderOptions,
): NewMessage | 'skip' | null {
  const role = message.author?.role
  if (role !== 'user' && role !== 'assistant') return 'skip'
  if (message.metadata?.is_visually_hidden_from_conversation) return 'skip'
  if (message.recipient !== undefined && message.recipient !== 'all') return 'skip' // a tool call, not a reply
  const text = textOf(message.content)
  if (text === null) return 'skip'
  const seconds =
    typeof message.create_time === 'number'
      ? message.create_time
      : typeof message.update_time === 'number'
        ? message.update_time
        : lastSeconds
  if (seconds === null) return 'skip'
  return {
    id: typeof message.id === 'string' && message.id !== '' ? message.id : nodeId,
    chatJid,
    sender: role,
    senderName: role === 'user' ? (options.me ?? 'You') : 'ChatGPT',
    content: text,
    timestamp: new Date(Math.round(seconds * 1000)).toISOString(),
    isFromMe: role === 'user',
    isBotMessage: role === 'assistant',
  }
}

/** Text of a text or multimodal message: string parts and parts' `text`; images as `[image]`. */
function textOf(content: ExportMessage['content']): string | null {
  if (content?.content_type !== 'text' && content?.content_type !== 'multimodal_text') return null
  const pieces: string[] = []
  for (const part of content.parts ?? []) {
    if (typeof part === 'string') pieces.push(part)
    else if (part && typeof part === 'object') {
      const { text, content_type: type } = part as { text?: unknown; content_type?: unknown }
      if (typeof text === 'string') pieces.push(text)
      else if (type === 'image_asset_pointer') pieces.push('[image]')
    }
  }
  const text = pieces
    .filter((piece) => piece.trim() !== '')
    .join('\n')
    .trim()
  return text === '' ? null : text
}
