// Who is talking in the sample: the user, the assistant, and the chats and branches they talk in.
import type { NewBranch } from '../db/messages.js'
import type { ChatKey } from './types.js'

export const USER = { sender: 'user:maya', senderName: 'Maya' } as const
export const ASSISTANT = { sender: 'assistant', senderName: 'Assistant' } as const

export interface SampleChat {
  jid: string
  name: string
  /** In the 21-day story, the first day (days before today) filler may land here; undefined: scenes only. */
  fillerFromDaysAgo?: number
}

export const SAMPLE_CHATS: Record<ChatKey, SampleChat> = {
  main: { jid: 'whatsapp:+15550100@s.whatsapp.net', name: 'Maya', fillerFromDaysAgo: 21 },
  kitchen: { jid: 'web:kitchen', name: 'Kitchen questions', fillerFromDaysAgo: 21 },
  atlas: { jid: 'web:atlas', name: 'Atlas (work)', fillerFromDaysAgo: 17 },
  trip: { jid: 'web:madeira', name: 'Madeira trip', fillerFromDaysAgo: 13 },
  talk: { jid: 'web:meetup-talk', name: 'Meetup talk', fillerFromDaysAgo: 11 },
  // Regenerated versions of the trip conversation: their own chats, rooted at the trip chat.
  tripFork1: { jid: 'web:madeira/fork-1', name: 'Madeira trip (regenerated)' },
  tripFork2: { jid: 'web:madeira/fork-2', name: 'Madeira trip (regenerated again)' },
}

/** Branch rows without created_at (the generator stamps each with its first message). */
export const SAMPLE_BRANCHES: readonly (Omit<NewBranch, 'createdAt'> & { chat: ChatKey })[] = [
  { chat: 'tripFork1', branchId: 'branch-madeira-1', chatJid: SAMPLE_CHATS.tripFork1.jid, rootChatJid: SAMPLE_CHATS.trip.jid },
  {
    chat: 'tripFork2',
    branchId: 'branch-madeira-2',
    chatJid: SAMPLE_CHATS.tripFork2.jid,
    rootChatJid: SAMPLE_CHATS.trip.jid,
    parentBranchId: 'branch-madeira-1',
  },
]

export const CHAT_KEYS = Object.keys(SAMPLE_CHATS) as ChatKey[]
