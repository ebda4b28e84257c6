// The chat view: chats, the conversation, a dream-activity panel, and a form that works with or without JS.
import type { ChatMessage } from '../../chat/chat-message.js'
import { DREAMLANE_SENDER } from '../../db/messages.js'
import type { RunSummary } from '../run-view.js'
import { html, segment, type SafeHtml } from './html.js'
import { formatInstant, renderPage } from './layout.js'

export interface ChatPageInput {
  jid: string
  chats: { jid: string; name: string | null; lastMessageTime: string | null }[]
  messages: ChatMessage[]
  activeRun: RunSummary | null
  /** The hub's newest event id: the page's live stream resumes after it. */
  afterEventId: number
  notice?: string | null
  /** Chats kept out of memory, by jid: why, in words ("excluded from memory", "private since …"). @default none */
  keptOut?: ReadonlyMap<string, string>
}

/** 'user', 'assistant', or 'dream' for what dreamlane itself posted (command replies, dream summaries). */
export function messageKind(message: Pick<ChatMessage, 'role' | 'sender'>): 'user' | 'assistant' | 'dream' {
  if (message.role === 'user') return 'user'
  return message.sender === DREAMLANE_SENDER ? 'dream' : 'assistant'
}

const WHO: Record<ReturnType<typeof messageKind>, string> = {
  user: 'You',
  assistant: 'Assistant',
  dream: 'Dream',
}

export function renderMessage(message: ChatMessage): SafeHtml {
  const kind = messageKind(message)
  const who = kind === 'user' ? (message.senderName ?? WHO.user) : WHO[kind]
  return html`<li class="msg msg-${kind}" data-id="${message.id}">
    <p class="meta">
      <span class="who">${who}</span>
      <time datetime="${message.timestamp}">${formatInstant(message.timestamp)}</time>
    </p>
    <div class="text">${message.content}</div>
  </li>`
}

export function renderChatPage(input: ChatPageInput): string {
  const chats = input.chats.some((chat) => chat.jid === input.jid)
    ? input.chats
    : [{ jid: input.jid, name: null, lastMessageTime: null }, ...input.chats]
  const keptOut = input.keptOut ?? new Map<string, string>()
  const badge = (jid: string) => {
    const why = keptOut.get(jid)
    return why ? html` <span class="badge kept-out">${why}</span>` : ''
  }
  const chatLinks = chats.map((chat) =>
    chat.jid === input.jid
      ? html`<li>
          <a href="/chat/${segment(chat.jid)}" aria-current="page"
            >${chat.name && chat.name !== chat.jid ? chat.name : chat.jid}</a
          >${badge(chat.jid)}
        </li>`
      : html`<li>
          <a href="/chat/${segment(chat.jid)}"
            >${chat.name && chat.name !== chat.jid ? chat.name : chat.jid}</a
          >${badge(chat.jid)}
        </li>`,
  )
  const currentKeptOut = keptOut.get(input.jid)
  const run = input.activeRun
  const body = html`<h1>Chat</h1>
    <div class="chat-layout">
      <nav class="chat-list" aria-labelledby="chats-title">
        <h2 id="chats-title">Chats</h2>
        <ul>
          ${chatLinks}
        </ul>
        <form method="get" action="/chat" class="open-chat">
          <label for="open-jid">Open chat</label>
          <input id="open-jid" name="jid" required maxlength="200" placeholder="web:work" />
          <button type="submit">Open</button>
        </form>
      </nav>
      <section class="conversation" aria-labelledby="conversation-title">
        <h2 id="conversation-title">${input.jid}</h2>
        ${currentKeptOut ? html`<p class="kept-out-note">This chat is kept out of memory (${currentKeptOut}): dreams, cues and search never see it.</p>` : ''}
        <ol class="messages" id="messages" aria-live="polite" aria-relevant="additions">
          ${input.messages.map(renderMessage)}
        </ol>
        ${input.messages.length === 0 ? html`<p class="muted" id="empty-chat">No messages yet. Ask about something in your notes, or type <code>/dream 7</code>.</p>` : ''}
        <section
          class="activity"
          id="activity"
          aria-labelledby="activity-title"
          ${run ? html` data-run-id="${run.id}"` : ''}
        >
          <h3 id="activity-title">Dream activity</h3>
          <p id="activity-status">
            ${run ? html`Dream <a href="/dreams/${segment(run.id)}">${run.id}</a> is ${run.status}.` : 'No dream running.'}
          </p>
          <ol id="activity-steps" class="steps"></ol>
        </section>
        <form method="post" action="/chat/${segment(input.jid)}" id="composer" class="composer">
          <label for="composer-text">Message</label>
          <textarea
            id="composer-text"
            name="text"
            rows="2"
            required
            maxlength="8000"
            aria-describedby="composer-hint"
          ></textarea>
          <button type="submit">Send</button>
          <p id="composer-hint" class="hint">
            Answers come from your memory notes. Commands: <code>/dream 7</code>, <code>/dream status</code>,
            <code>/dreaming on|off|status</code>, <code>/forget &lt;what&gt;</code>,
            <code>/private on|off</code>.
          </p>
        </form>
      </section>
    </div>`
  return renderPage({
    title: `Chat ${input.jid}`,
    page: 'chat',
    body,
    notice: input.notice ?? null,
    data: { jid: input.jid, after: String(input.afterEventId) },
  })
}
