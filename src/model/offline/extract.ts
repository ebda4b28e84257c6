// Signal: the durable facts stated in a window's user messages, in the order they were said.
import { classifyLine, classifySentence } from './classify.js'
import { mayNameADay } from './dates.js'
import { withoutWorkToCome } from './job-start.js'
import { proseOf, splitSentences, stripTruncationNote } from './text.js'
import { asTyped } from './texting.js'
import { yieldToLoop } from './yield.js'
import type { Fact, WindowMessage } from './types.js'

// Cheap gate before the NLP rules: a sentence with none of these, and no day ("Start date is Monday"), cannot match
// any rule.
const CANDIDATE = new RegExp(
  "\\b(?:i|i'm|i've|i'd|we|we're|we've|my|our|me|you|your|please|don't|do not|never|always|stop|keep|no|" +
    "decision|decided|agreed|let's|the|living|based|moved|name|called|named|engaged|spelled|spelt|next time|" +
    'sorry|oops|correction|wait|from now on|going forward|too (?:long|short|wordy|formal|casual|much))\\b|\\d',
  'i',
)

/**
 * Facts from user messages only (assistant replies are not facts about the user), oldest first;
 * ties keep message order, then sentence order, so the same window always gives the same list.
 */
export async function extractFacts(messages: readonly WindowMessage[], timeZone: string): Promise<Fact[]> {
  const said = saidInOrder(messages)
  return resolveAmendments(said, await extractInOrder(said, timeZone))
}

/**
 * "Dinner is on Wednesday." then "sorry, I meant Thursday": a day put right takes the key of the plan stated just
 * before it, in its own message (which it replaces) or in the user's message before it in that chat, the same day
 * (whose day it supersedes). With no such plan it says nothing, and is dropped. `facts` are those of `said`.
 */
export function resolveAmendments(said: readonly WindowMessage[], facts: readonly Fact[]): Fact[] {
  const before = new Map<string, WindowMessage>()
  const lastInChat = new Map<string, WindowMessage>()
  for (const message of said) {
    const last = lastInChat.get(message.chat)
    if (last) before.set(message.id, last)
    lastInChat.set(message.chat, message)
  }
  const resolved: Fact[] = []
  for (const fact of facts) {
    if (!fact.amends) {
      resolved.push(fact)
      continue
    }
    const target = resolved.findLast((plan) => plan.kind === 'plan' && plan.chat === fact.chat)
    if (!target) continue
    const amended = { ...fact, key: target.key, text: `${target.text} ${fact.text}`, amends: false }
    const previous = before.get(fact.messageId)
    if (target.messageId === fact.messageId) {
      resolved.splice(resolved.indexOf(target), 1, { ...amended, previous: null })
    } else if (previous?.id === target.messageId && previous.day === fact.day) {
      resolved.push({ ...amended, previous: target.value })
    }
  }
  return resolved
}

/** What the user said, oldest first (ties in window order): the order facts are extracted and merged in. */
export function saidInOrder(messages: readonly WindowMessage[]): WindowMessage[] {
  // Each time parsed once: parsing in the comparator cost a busy week's 20k messages a 0.3 s block.
  return ownersMessages(messages)
    .map((message, index) => ({ message, index, at: Date.parse(message.ts) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ message }) => message)
}

/** The facts of messages already in saidInOrder's order; each message's facts depend on it alone. */
export async function extractInOrder(said: readonly WindowMessage[], timeZone: string): Promise<Fact[]> {
  const facts: Fact[] = []
  for (const message of said) facts.push(...(await factsOfMessage(message, timeZone)))
  return facts
}

// Yields between sentences, not only between messages: one long pasted message can hold hundreds of them.
async function factsOfMessage(message: WindowMessage, timeZone: string): Promise<Fact[]> {
  const source = { ts: message.ts, day: message.day, messageId: message.id, chat: message.chat, timeZone }
  const content = stripTruncationNote(message.content)
  const found: Fact[] = []
  for (const line of proseOf(content).split('\n')) {
    // Identifiers have a digit or an @; addresses of sites a dot between letters.
    if (/\d|@|[a-z]\.[a-z]/i.test(line)) found.push(...classifyLine({ ...source, text: line }))
  }
  const context: string[] = []
  for (const typed of splitSentences(content)) {
    await yieldToLoop()
    const sentence = asTyped(typed)
    if (CANDIDATE.test(sentence) || mayNameADay(sentence)) {
      found.push(...classifySentence({ ...source, text: sentence, context: context.join(' ') }))
    }
    context.push(sentence)
  }
  // One message states a subject once: the first sentence that names it wins, unless it only ended it and a later
  // one says what came after ("I've given up on being vegan. Vegetarian again.").
  const first = new Map<string, Fact>()
  for (const fact of found) {
    const said = first.get(fact.key)
    if (!said) first.set(fact.key, fact)
    else if (said.isSingle && said.value === 'none' && fact.value !== 'none')
      first.set(fact.key, { ...fact, previous: fact.previous ?? said.previous, isCorrection: true })
  }
  return withoutWorkToCome([...first.values()], message.day)
}

const personOf = (message: WindowMessage): string => message.sender.trim().toLowerCase()

/**
 * The messages whose "I" is the person this memory belongs to. In a chat one person has with the assistant, that
 * is everything they send. Where several people write (a group), or one person writes with no assistant in the
 * chat (an imported chat between two friends, only the friend talking this week), only the owner's count: the
 * messages the DB marks as sent from the exporting account or, with no such mark in the chat, those of someone
 * known as the owner elsewhere in the window (marked, or alone with the assistant). A chat with neither tells
 * nothing sure about the user, and gives no facts. A DB that never marks anything (a host's own chat, LoCoMo)
 * takes every lone sender as the owner, as before.
 */
function ownersMessages(messages: readonly WindowMessage[]): WindowMessage[] {
  const chats = new Map<string, { people: Set<string>; marked: boolean; assisted: boolean }>()
  for (const message of messages) {
    const chat = chats.get(message.root) ?? { people: new Set<string>(), marked: false, assisted: false }
    if (message.role === 'assistant') chat.assisted = true
    else {
      chat.people.add(personOf(message))
      chat.marked ||= message.fromMe === true
    }
    chats.set(message.root, chat)
  }
  const usesMarks = [...chats.values()].some((chat) => chat.marked)
  const isOwnersChat = (chat: { people: Set<string>; assisted: boolean }) =>
    chat.people.size === 1 && (chat.assisted || !usesMarks)
  const owners = new Set(messages.filter((m) => m.role === 'user' && m.fromMe).map(personOf))
  for (const chat of chats.values())
    if (isOwnersChat(chat)) for (const person of chat.people) owners.add(person)
  return messages.filter((message) => {
    if (message.role !== 'user') return false
    const chat = chats.get(message.root)
    if (chat === undefined || isOwnersChat(chat)) return true
    return chat.marked ? message.fromMe === true : owners.has(personOf(message))
  })
}
