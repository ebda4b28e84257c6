// Folder fsyncs owed by atomic writes, paid once per folder: a rename is durable only once its folder is synced,
// and one fsync of a folder makes every rename already done in it durable.
import { open } from 'node:fs/promises'

/** fsyncs `dir`, so the renames in it survive a crash of the machine. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic there.
  }
}

/**
 * The folders a batch of atomic writes renamed into, synced together by `flush`. Each file's bytes are still
 * synced before its rename, so a crash before `flush` leaves every file whole, old or new; the batch's owner
 * flushes before it reports the writes done, so what it reports survives a crash as before, with one folder
 * fsync instead of one per file (a year's seeded notes: 1 instead of 365).
 */
export class DirSyncs {
  readonly #dirs = new Set<string>()
  readonly #sync: (dir: string) => Promise<void>

  /** `sync` is a test seam. */
  constructor(sync: (dir: string) => Promise<void> = syncDir) {
    this.#sync = sync
  }

  add(dir: string): void {
    this.#dirs.add(dir)
  }

  /** Syncs every folder renamed into since the last flush, once each. */
  async flush(): Promise<void> {
    const dirs = [...this.#dirs]
    this.#dirs.clear()
    await Promise.all(dirs.map((dir) => this.#sync(dir)))
  }
}
