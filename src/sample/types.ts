// Shapes shared by the sample generator: the input, its result, planted facts and the scripted story.
import type { MessageRole } from '../db/messages.js'
import type { LocalDay } from '../time/local-day.js'

export type FactKind =
  'identity' | 'preference' | 'relation' | 'decision' | 'plan' | 'feedback' | 'reference' | 'correction'

/** The memory file a faithful consolidation should put a planted fact in. */
export type ExpectedFile = 'user.md' | 'feedback.md' | 'project.md' | 'reference.md' | 'current-state.md'

/** A durable fact the story plants in one user message, with what memory should end up saying. */
export interface PlantedFact {
  id: string
  kind: FactKind
  /** Local day (in the generator's time zone) of the message. */
  day: LocalDay
  messageId: string
  /** The message content, verbatim. */
  text: string
  expectedFile: ExpectedFile
  /** Substrings (compare case-insensitively) the expected file should hold once the fact is consolidated. */
  mustContain: string[]
  /** For a changed fact: what the older statement said, which memory must no longer present as current. */
  supersedes?: { mustContain: string[] }
}

export interface GenerateSampleInput {
  file: string
  now: Date
  /** IANA zone: days and waking hours are local to it. */
  timeZone: string
  /** Days of history ending today (at least 10). @default 21 */
  days?: number
  /** @default 1 */
  seed?: number
  /** Replace an existing non-empty DB at `file`. @default false */
  overwrite?: boolean
}

export interface SampleResult {
  /** Counts of what was written. */
  chats: number
  branches: number
  messages: number
  /** First and last local days that have messages. */
  firstDay: LocalDay
  lastDay: LocalDay
  planted: PlantedFact[]
  /** The main DM's jid. */
  mainChat: string
  /** Days with over 50 messages across more than 2 session trees. */
  busyDays: LocalDay[]
}

/** The story's chats, by role in the story. */
export type ChatKey = 'main' | 'atlas' | 'talk' | 'trip' | 'tripFork1' | 'tripFork2' | 'kitchen'

/** What a planted message should teach memory; the generator adds day, id and text. */
export type FactSpec = Omit<PlantedFact, 'day' | 'messageId' | 'text'>

export interface Line {
  role: MessageRole
  text: string
  fact?: FactSpec
}

/** One scripted conversation burst. */
export interface Scene {
  chat: ChatKey
  /** Days before today in a 21-day story; older scenes are rescaled for other lengths. */
  daysAgo: number
  /** Local hour the burst starts (fractional), before any rescheduling around other bursts. */
  hour: number
  lines: Line[]
}

/** A filler question and the assistant's answer. */
export type Exchange = readonly [user: string, assistant: string]
