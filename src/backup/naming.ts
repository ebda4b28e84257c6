// Backup ids `<stamp>[.<seq>]-<mode>-<jid>`: unique, filename-safe, sorting by creation time as strings.

/** Parsed form of a backup file name (without `.zip`). */
export interface BackupId {
  id: string
  /** `YYYYMMDDTHHMMSSZ` plus `.NNN` when several backups land in one second; sorts by time as a string. */
  sortKey: string
  createdAt: string
  mode: string
  chatJid: string
}

export const BACKUP_EXTENSION = '.zip'

// The stamp has a fixed width and the sequence is zero-padded, so string order is time order; '-' (0x2d)
// sorts before '.' (0x2e), which puts the first backup of a second ahead of its numbered successors.
const ID_PATTERN = /^(\d{8}T\d{6}Z)(?:\.(\d{3}))?-([A-Za-z0-9_]+)-([A-Za-z0-9._-]+)$/
const MAX_SEQUENCE = 999
const MAX_JID_CHARS = 96

/** The clock's instant as a compact UTC stamp, second precision: `20261121T010000Z`. */
export function formatStamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')
}

/** Builds an id; `sequence` 0 means "first backup of that second" and adds no suffix. */
export function formatBackupId(stamp: string, sequence: number, mode: string, chatJid: string): string {
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > MAX_SEQUENCE) {
    throw new RangeError(`backup sequence ${sequence} out of range 0..${MAX_SEQUENCE} for ${stamp}`)
  }
  const suffix = sequence === 0 ? '' : `.${String(sequence).padStart(3, '0')}`
  return `${stamp}${suffix}-${sanitizeMode(mode)}-${sanitizeJid(chatJid)}`
}

/** Mode keeps no '-' so the id splits unambiguously; the jid may (it is the last field). */
export function sanitizeMode(mode: string): string {
  return mode.replace(/[^A-Za-z0-9_]/g, '_') || 'backup'
}

export function sanitizeJid(chatJid: string): string {
  return chatJid.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, MAX_JID_CHARS) || 'none'
}

/** Parses a backup id (or file name ending in `.zip`); undefined for names that are not backups. */
export function parseBackupId(name: string): (BackupId & { sequence: number }) | undefined {
  const id = name.endsWith(BACKUP_EXTENSION) ? name.slice(0, -BACKUP_EXTENSION.length) : name
  const match = ID_PATTERN.exec(id)
  if (!match) return undefined
  const [, stamp = '', sequence, mode = '', chatJid = ''] = match
  const createdAt = parseStamp(stamp)
  if (!createdAt) return undefined
  return {
    id,
    sortKey: sequence ? `${stamp}.${sequence}` : stamp,
    createdAt,
    mode,
    chatJid,
    sequence: sequence ? Number(sequence) : 0,
  }
}

/** The next free sequence number for `stamp`, given the ids already in the folder. */
export function nextSequence(stamp: string, existingIds: Iterable<string>): number {
  let next = 0
  for (const id of existingIds) {
    const parsed = parseBackupId(id)
    if (parsed && parsed.sortKey.slice(0, stamp.length) === stamp) next = Math.max(next, parsed.sequence + 1)
  }
  return next
}

/** Newest first. */
export function compareNewestFirst(a: { sortKey: string }, b: { sortKey: string }): number {
  return a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0
}

function parseStamp(stamp: string): string | undefined {
  const iso = stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')
  const at = new Date(iso)
  // Round-tripping rejects impossible dates such as month 13 that Date would otherwise roll over.
  return Number.isNaN(at.getTime()) || formatStamp(at) !== stamp ? undefined : at.toISOString()
}
