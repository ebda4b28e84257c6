// Use case: forget on request. A preview lists exactly what would go; a confirm removes it under the workspace
// lock (backup first), records it in the change ledger, refreshes the search index and leaves a tombstone that
// later dreams and promotion skip.
import { createHash } from 'node:crypto'
import { createBackup } from '../backup/create.js'
import { findBackupsHolding, purgeFromBackups } from '../backup/forget-backups.js'
import { PrivacyStore, type Tombstone } from '../db/privacy-store.js'
import { DreamlaneError } from '../errors.js'
import { markDirty } from '../fts/journal.js'
import { refreshIndex } from '../fts/refresh.js'
import { describeChange } from '../ledger/ledger.js'
import { LedgerStore } from '../ledger/store.js'
import { assertWritable, writeFileAtomic } from '../notes/atomic-write.js'
import { planForget, type ForgetPlan } from '../notes/forget-plan.js'
import type { RemovalKind } from '../notes/forget-text.js'
import { withWorkspaceLock } from '../notes/lock.js'
import { compileForgetMatcher } from '../privacy/forget-match.js'
import { phrasesOf } from '../privacy/forget-phrases.js'
import { redactPieces } from '../privacy/redact.js'
import { randomHex } from '../random-hex.js'
import { dropForgottenRecall } from '../recall/forget.js'
import type { ReviewContext } from './context.js'

/** One thing that goes: where, what kind, and its text as it stands. */
export interface ForgetItem {
  path: string
  line: number
  kind: RemovalKind
  text: string
}

export interface ForgetPreview {
  what: string
  /** Every phrase matched: the request's, then `expanded`. */
  phrases: string[]
  /** Names taken along from the facts that go (`Dr Sousa`, from `Dentist: Dr Sousa`). */
  expanded: string[]
  items: ForgetItem[]
  /** The notes that change. */
  files: string[]
  /** Backups that hold it (a confirm leaves them so unless it purges them). */
  backupsHolding: string[]
  /** Names the notes this preview read: a confirm given it removes exactly this, or asks again. */
  token: string
  message: string
}

export interface ForgetOptions {
  /** Rewrite the backups that hold it too (the forget can then not be undone). @default false */
  purgeBackups?: boolean
  /** A preview's token: refuse (FORGET_INVALID, with the new preview) when the notes changed since. */
  token?: string
  /** Who asked (a chat jid, `cli`, `mcp:<client>`, `http`). @default 'cli' */
  chatJid?: string
}

export interface ForgetResult extends ForgetPreview {
  /** The forget's id: its tombstone, and its change ledger. */
  id: string
  /** The backup taken just before (null when no note changed). */
  backupId: string | null
  purgedBackups: string[]
  tombstone: Tombstone
}

/** What would go if `what` were forgotten now; touches nothing. */
export async function previewForget(ctx: ReviewContext, what: string): Promise<ForgetPreview> {
  const plan = await planForget(ctx.paths, requestedPhrases(what))
  const holding = await findBackupsHolding(ctx.paths, plan.phrases)
  return previewOf(
    what,
    plan,
    holding.map((backup) => backup.id),
  )
}

/** Forgets `what`: see the module comment. A dream in this process is waited for; one elsewhere → LOCK_HELD. */
export async function confirmForget(
  ctx: ReviewContext,
  what: string,
  options: ForgetOptions = {},
): Promise<ForgetResult> {
  const requested = requestedPhrases(what)
  await ctx.dreams?.idle()
  const id = `forget-${ctx.clock.now().toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`
  return withWorkspaceLock(ctx, id, async () => {
    const plan = await planForget(ctx.paths, requested)
    if (options.token !== undefined && options.token !== tokenOf(plan)) {
      const again = previewOf(what, plan, [])
      throw new DreamlaneError(
        'FORGET_INVALID',
        `the notes changed since that preview, so nothing was removed. What would go now:\n${again.message}`,
      )
    }
    for (const file of plan.files) await assertWritable(file.abs)
    const backup = plan.files.length
      ? await createBackup({
          paths: ctx.paths,
          mode: 'forget',
          chatJid: options.chatJid ?? 'cli',
          clock: ctx.clock,
          keep: ctx.config.backups.keep,
        })
      : null
    for (const file of plan.files) await writeFileAtomic(file.abs, file.after)
    // Purged: the ledger keeps hashes and counts but no diff, which would hold the very text.
    const changes = plan.files.map((file) =>
      describeChange({ path: file.rel, before: Buffer.from(file.before), after: Buffer.from(file.after) }),
    )
    new LedgerStore(ctx.state).save(
      id,
      options.purgeBackups ? changes.map((change) => ({ ...change, diff: '' })) : changes,
      ctx.config.privacy.keepSecretKinds,
    )
    markDirty(
      ctx.state,
      ctx.paths.workspace,
      plan.files.map((file) => file.abs),
    )
    await refreshIndex({ state: ctx.state, paths: ctx.paths, config: ctx.config, clock: ctx.clock })
    const matcher = compileForgetMatcher(plan.phrases)
    dropForgottenRecall(ctx.state, matcher)
    // The logs forget it too: earlier runs' tool calls, transcripts and ledger diffs.
    ctx.runs.redactRecords((text) =>
      matcher.matches(text) ? (redactPieces(text, matcher, 'sentence').text ?? '[forgotten]') : text,
    )
    new LedgerStore(ctx.state).redactDiffs((line) => matcher.matches(line), id)
    const tombstone = new PrivacyStore(ctx.state).addTombstone({
      id,
      what,
      phrases: plan.phrases,
      chatJid: options.chatJid ?? 'cli',
      createdAt: ctx.clock.now().toISOString(),
      backupId: backup?.id ?? null,
      changedFiles: plan.files.map((file) => file.rel),
      backupsPurged: Boolean(options.purgeBackups),
    })
    const purgedBackups = options.purgeBackups ? await purgeFromBackups(ctx.paths, plan.phrases) : []
    // Read back after a purge too: the summary names every backup that still holds it, never assumes none.
    const holding = (await findBackupsHolding(ctx.paths, plan.phrases)).map((found) => found.id)
    const preview = previewOf(what, plan, holding)
    return {
      ...preview,
      id,
      backupId: backup?.id ?? null,
      purgedBackups,
      tombstone,
      message: describeDone(id, preview, purgedBackups),
    }
  })
}

/** Every forget, newest first (active ones are the tombstones dreams skip). */
export function listForgets(ctx: Pick<ReviewContext, 'state'>): Tombstone[] {
  return new PrivacyStore(ctx.state).listTombstones()
}

function requestedPhrases(what: string): string[] {
  const phrases = phrasesOf(what)
  if (phrases.length === 0)
    throw new DreamlaneError(
      'FORGET_INVALID',
      `"${what.trim()}" names nothing to forget: say what, in a word or a name (e.g. "my dentist", "Dr Sousa")`,
    )
  return phrases
}

function previewOf(what: string, plan: ForgetPlan, backupsHolding: string[]): ForgetPreview {
  const items = plan.files.flatMap((file) => file.removals.map((removal) => ({ path: file.rel, ...removal })))
  const preview = {
    what,
    phrases: plan.phrases,
    expanded: plan.expanded,
    items,
    files: plan.files.map((file) => file.rel),
    backupsHolding,
    token: tokenOf(plan),
  }
  return { ...preview, message: describePreview(preview) }
}

/** A hash of the phrases and of every note the plan would change, as it read them. */
function tokenOf(plan: ForgetPlan): string {
  const hash = createHash('sha256').update(JSON.stringify(plan.phrases))
  for (const file of plan.files) hash.update(`\0${file.rel}\0${file.before}`)
  return hash.digest('hex').slice(0, 16)
}

const KIND_WORDS: Record<RemovalKind, string> = {
  fact: 'fact',
  pointer: 'index pointer',
  noted: 'noted line',
  cue: 'message cue',
  topic: 'topic',
  sentence: 'sentence',
  line: 'line',
}

const PREVIEW_ITEMS = 40

function describePreview(preview: Omit<ForgetPreview, 'message'>): string {
  const names = preview.phrases.map((phrase) => `"${phrase}"`).join(', ')
  const lines = [
    preview.items.length === 0
      ? `Nothing in the notes mentions ${names}.`
      : `Forgetting ${names} removes ${preview.items.length} item(s) from ${preview.files.length} note(s):`,
  ]
  for (const item of preview.items.slice(0, PREVIEW_ITEMS))
    lines.push(`- ${item.path}:${item.line} (${KIND_WORDS[item.kind]}) ${oneLine(item.text)}`)
  if (preview.items.length > PREVIEW_ITEMS) lines.push(`- … and ${preview.items.length - PREVIEW_ITEMS} more`)
  if (preview.expanded.length > 0)
    lines.push(`Also matched: ${preview.expanded.join(', ')} (named by a fact that goes).`)
  lines.push('Later dreams will skip it too, though the chat history still holds it.')
  if (preview.backupsHolding.length > 0)
    lines.push(`Backups that hold it: ${preview.backupsHolding.join(', ')}.`)
  return lines.join('\n')
}

function describeDone(id: string, preview: ForgetPreview, purged: string[]): string {
  const lines = [
    preview.items.length === 0
      ? `Forgotten (${id}): nothing in the notes mentioned it; later dreams will skip it.`
      : `Forgotten (${id}): removed ${preview.items.length} item(s) from ${preview.files.length} note(s); later dreams will skip it.`,
  ]
  if (purged.length > 0)
    lines.push(`Rewrote ${purged.length} backup(s) without it (${purged.join(', ')}); this cannot be undone.`)
  if (preview.backupsHolding.length > 0)
    lines.push(
      purged.length > 0
        ? `Still held by backup(s): ${preview.backupsHolding.join(', ')} (where no note line could be taken out).`
        : `Still held by backup(s): ${preview.backupsHolding.join(', ')} (forget again with --purge-backups to rewrite them).`,
    )
  if (purged.length === 0 && preview.items.length > 0)
    lines.push('Undo it until the next dream: `dreamlane forget --undo`.')
  return lines.join('\n')
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat
}
