// The server-rendered pages (chat, Dreams, one run, Memory) and their two static assets.
import type { Context, Hono } from 'hono'
import { readFile } from 'node:fs/promises'
import { DreamlaneError, PathOutOfScopeError } from '../../errors.js'
import { withholdSecrets } from '../../secrets/withhold.js'
import { resolveReadTarget } from '../../tools/scope.js'
import { listBackups } from '../../backup/list.js'
import type { ServerHost } from '../host.js'
import { countMemory, readMemoryFiles } from '../memory-files.js'
import { diffRun } from '../run-diff.js'
import { detailRun, summarizeRun } from '../run-view.js'
import { idSchema, jidSchema, parseInput } from '../validate.js'
import { renderChatPage } from '../web/chat-page.js'
import { CLIENT_SCRIPT } from '../web/client-script.js'
import { renderDreamsPage } from '../web/dreams-page.js'
import { renderMemoryPage, renderNotePage } from '../web/memory-page.js'
import { renderRunPage } from '../web/run-page.js'
import { STYLESHEET } from '../web/styles.js'
import { DASHBOARD_CHAT } from './dreams.js'
import { readStatus } from './status.js'

const GATE_WORDS: Record<string, string> = {
  disabled: 'AutoDream is off',
  lock: 'a dream or restore holds the workspace lock',
  time: 'the last successful AutoDream was too recent',
  sessions: 'there was nothing new to consolidate',
  signal: 'there was not enough new recall signal',
}

/** The words of a form post's result, from the redirect's query; ids are shown only when well-formed. */
export function noticeFrom(c: Context): string | null {
  const id = (name: string) => {
    const value = c.req.query(name)
    return value !== undefined && idSchema.safeParse(value).success ? value : null
  }
  switch (c.req.query('notice')) {
    case 'queued':
      return 'Dream queued. Progress appears below as it runs.'
    case 'joined':
      return 'A dream was already queued or running; your request joined it.'
    case 'retry':
      return `Retry queued${id('of') ? ` for ${id('of')}` : ''}.`
    case 'restored':
      return `Restored backup ${id('backup') ?? ''}. The notes before the restore are in safety backup ${id('safety') ?? ''}.`
    case 'apply':
      return 'Applied: the dream’s changes are now in your notes.'
    case 'discard':
      return 'Discarded: your notes stay as they were; the staged result is gone.'
    case 'undo':
      return 'Undone: the files this dream changed are back as they were before it (recorded as an undo run).'
    case 'gate': {
      const gate = c.req.query('gate') ?? ''
      return `No dream started: ${GATE_WORDS[gate] ?? 'the gate said no'}.`
    }
    default:
      return null
  }
}

export function registerPageRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane, hub } = host
  const workspace = dreamlane.paths.workspace

  app.get('/', (c) => c.redirect('/chat', 303))

  app.get('/chat', (c) => {
    const jid = c.req.query('jid')
    return c.redirect(
      `/chat/${encodeURIComponent(jid ? parseInput(jidSchema, jid, 'chat id') : DASHBOARD_CHAT)}`,
      303,
    )
  })

  app.get('/chat/:jid', (c) => {
    const jid = parseInput(jidSchema, c.req.param('jid'), 'chat id')
    const active = dreamlane.listRuns({ status: ['queued', 'running'], limit: 1 })[0]
    const chats = dreamlane.messages.listChats()
    const page = renderChatPage({
      jid,
      chats,
      keptOut: keptOutChats(dreamlane, [jid, ...chats.map((chat) => chat.jid)]),
      messages: host.assistant.history(jid, 200),
      activeRun: active ? summarizeRun(active, workspace) : null,
      afterEventId: hub.lastId,
      notice: noticeFrom(c),
    })
    return c.html(page)
  })

  app.get('/dreams', async (c) => {
    const page = renderDreamsPage({
      status: await readStatus(dreamlane),
      runs: dreamlane.listRuns({ limit: 50 }).map((run) => summarizeRun(run, workspace)),
      backups: await listBackups(dreamlane.paths),
      fleet: host.fleet ? await host.fleet.summary() : null,
      defaultDays: dreamlane.config.dream.defaultDays,
      maxDays: dreamlane.config.dream.maxDays,
      afterEventId: hub.lastId,
      notice: noticeFrom(c),
    })
    return c.html(page)
  })

  app.get('/dreams/:id', async (c) => {
    const afterEventId = hub.lastId
    const run = dreamlane.getRun(parseInput(idSchema, c.req.param('id'), 'run id'))
    const page = renderRunPage({
      run: detailRun(run, workspace),
      record: run,
      diff: await diffRun(
        dreamlane.paths,
        run,
        dreamlane.changes(run.id),
        dreamlane.config.privacy.keepSecretKinds,
      ),
      afterEventId,
      notice: noticeFrom(c),
    })
    return c.html(page)
  })

  app.get('/memory', async (c) => {
    const counts = await countMemory(dreamlane.paths)
    return c.html(
      renderMemoryPage(
        await readMemoryFiles(dreamlane.paths, dreamlane.config.privacy.keepSecretKinds),
        counts.missing,
        dreamlane.excludedChats(),
      ),
    )
  })

  // Any note under notes/ (read as the model's read_file would be: scoped, no escapes), e.g. a linked daily note.
  app.get('/note', async (c) => {
    const path = c.req.query('path') ?? ''
    try {
      if (!path.startsWith('notes/')) throw new PathOutOfScopeError(path, 'only notes under notes/ are shown')
      const target = await resolveReadTarget(path, 'file', dreamlane.paths, dreamlane.config)
      // A note written by hand since the last dream may still hold a secret: the page never shows one.
      const text = withholdSecrets(await readFile(target.abs, 'utf8'), {
        keepKinds: dreamlane.config.privacy.keepSecretKinds,
      }).text
      return c.html(renderNotePage(target.rel, text))
    } catch (error) {
      if (!(error instanceof DreamlaneError)) throw error
      throw new DreamlaneError('NOT_FOUND', `no note ${path} here (${error.message})`, { cause: error })
    }
  })

  app.get('/assets/app.js', (c) => asset(c, CLIENT_SCRIPT, 'text/javascript; charset=utf-8'))
  app.get('/assets/app.css', (c) => asset(c, STYLESHEET, 'text/css; charset=utf-8'))
}

function asset(c: Context, text: string, type: string): Response {
  c.header('Content-Type', type)
  c.header('Cache-Control', 'no-cache')
  return c.body(text)
}

/** Why each of `jids` is kept out of memory, for those that are. */
function keptOutChats(dreamlane: ServerHost['dreamlane'], jids: readonly string[]): Map<string, string> {
  const keptOut = new Map<string, string>()
  for (const jid of jids) {
    const privacy = dreamlane.chatPrivacy(jid)
    if (privacy.excluded) keptOut.set(jid, 'excluded from memory')
    else if (privacy.privateSince) keptOut.set(jid, `private since ${privacy.privateSince}`)
  }
  return keptOut
}
