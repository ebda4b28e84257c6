// Who is talking in the sample: the user, the assistant, and the chats and branches they talk in.
import type { NewBranch } from '../db/messages.js'
import type { ChatKey } from './types.js'

export const USER = { sender: 'user:maya', senderName: 'Maya' } as const
export const ASSISTANT = { sender: 'assistant', senderName: 'Assistant' } as const

export interface SampleChat {
  jid: string
  name: string
  /**
   * When filler may land here: always, never (scripted scenes only), or on days after the story day
   * (days before today, 21-day story) whose scene opens the chat.
   */
  filler: 'always' | 'never' | { afterDaysAgo: number }
}

export const SAMPLE_CHATS: Record<ChatKey, SampleChat> = {
  main: { jid: 'whatsapp:+15550100@s.whatsapp.net', name: 'Maya', filler: 'always' },
  kitchen: { jid: 'web:kitchen', name: 'Kitchen questions', filler: 'always' },
  atlas: { jid: 'web:atlas', name: 'Atlas (work)', filler: { afterDaysAgo: 17 } },
  trip: { jid: 'web:madeira', name: 'Madeira trip', filler: { afterDaysAgo: 13 } },
  talk: { jid: 'web:meetup-talk', name: 'Meetup talk', filler: { afterDaysAgo: 11 } },
  // Regenerated versions of the trip conversation: their own chats, rooted at the trip chat.
  tripFork1: { jid: 'web:madeira/fork-1', name: 'Madeira trip (regenerated)', filler: 'never' },
  tripFork2: { jid: 'web:madeira/fork-2', name: 'Madeira trip (regenerated again)', filler: 'never' },
}

/** Branch rows without created_at (the generator stamps each with its first message). */
export const SAMPLE_BRANCHES: readonly (Omit<NewBranch, 'createdAt'> & { chat: ChatKey })[] = [
  {
    chat: 'tripFork1',
    branchId: 'branch-madeira-1',
    chatJid: SAMPLE_CHATS.tripFork1.jid,
    rootChatJid: SAMPLE_CHATS.trip.jid,
  },
  {
    chat: 'tripFork2',
    branchId: 'branch-madeira-2',
    chatJid: SAMPLE_CHATS.tripFork2.jid,
    rootChatJid: SAMPLE_CHATS.trip.jid,
    parentBranchId: 'branch-madeira-1',
  },
]

export const CHAT_KEYS = Object.keys(SAMPLE_CHATS) as ChatKey[]
