// Test worlds from object literals: temp dirs removed when the test ends, resolved config and paths.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import type { ConfigFile, ResolvedConfig } from '../../src/config/schema.js'
import { openMessagesDb, type MessagesDb, type NewBranch, type NewMessage } from '../../src/db/messages.js'
import { workspacePaths, type WorkspacePaths } from '../../src/notes/paths.js'

/** A fresh temp dir, removed after the current test. */
export function makeTempDir(prefix = 'dreamlane-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export interface TestWorkspace {
  dir: string
  config: ResolvedConfig
  paths: WorkspacePaths
}

/** A workspace in a temp dir holding `files` (paths relative to the workspace), timezone UTC unless set. */
export function makeWorkspace(files: Record<string, string> = {}, flags: ConfigFile = {}): TestWorkspace {
  const dir = makeTempDir()
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
  }
  const config = resolveConfig({ cwd: dir, env: {}, flags: { timezone: 'UTC', ...flags, workspace: dir } })
  mkdirSync(config.dataDir, { recursive: true })
  return { dir, config, paths: workspacePaths(config) }
}

export interface MessageSpec extends Partial<NewMessage> {
  chatJid: string
  content: string
  timestamp: string
}

let counter = 0

/** Writes a real messages DB at `paths.messagesDb` with the given chats, branches and messages. */
export function makeMessagesDb(
  paths: Pick<WorkspacePaths, 'messagesDb'>,
  messages: MessageSpec[],
  branches: NewBranch[] = [],
): MessagesDb {
  const db = openMessagesDb(paths.messagesDb, { create: true })
  for (const branch of branches) {
    db.upsertChat(branch.chatJid, branch.chatJid)
    db.upsertBranch(branch)
  }
  for (const message of messages) db.upsertChat(message.chatJid, message.chatJid)
  db.insertMessages(
    messages.map((message) => ({
      id: message.id ?? `m${++counter}`,
      sender: message.sender ?? (message.isBotMessage ? 'bot' : 'user'),
      senderName: message.senderName ?? (message.isBotMessage ? 'Assistant' : 'Alex'),
      ...message,
    })),
  )
  onTestFinished(() => {
    if (db.db.open) db.close()
  })
  return db
}
