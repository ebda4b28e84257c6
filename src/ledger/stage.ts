// A held run's staged result in the data dir: before/after bytes of each changed file plus a manifest of hashes.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import { DreamlaneError } from '../errors.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { absolutePath, readOrNull, sha256 } from './files.js'
import type { ChangedContent } from './types.js'

const MANIFEST = 'stage.json'

/** One staged file by its hashes (null: absent on that side). */
export interface StagedFile {
  path: string
  before: string | null
  after: string | null
}

export interface StageManifest {
  runId: string
  createdAt: string
  /** False until the workspace has been put back to the before side after staging (crash recovery reads it). */
  settled: boolean
  files: StagedFile[]
}

export function stagesDir(paths: Pick<WorkspacePaths, 'dataDir'>): string {
  return join(paths.dataDir, 'staged')
}

function stageDir(paths: Pick<WorkspacePaths, 'dataDir'>, runId: string): string {
  return join(stagesDir(paths), runId)
}

/**
 * Both sides are kept, so apply and discard never depend on a backup surviving pruning while a run waits.
 * Writes every side of every file, then the manifest last: a stage without a manifest is an unfinished
 * write and is ignored (and replaced by the next attempt).
 */
export async function writeStage(
  paths: Pick<WorkspacePaths, 'dataDir'>,
  runId: string,
  contents: readonly ChangedContent[],
  clock: Clock,
): Promise<StageManifest> {
  const dir = stageDir(paths, runId)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  for (const content of contents) {
    if (content.before) await writeFileAtomic(absolutePath(join(dir, 'before'), content.path), content.before)
    if (content.after) await writeFileAtomic(absolutePath(join(dir, 'after'), content.path), content.after)
  }
  const manifest: StageManifest = {
    runId,
    createdAt: clock.now().toISOString(),
    settled: false,
    files: contents.map((content) => ({
      path: content.path,
      before: content.before ? sha256(content.before) : null,
      after: content.after ? sha256(content.after) : null,
    })),
  }
  await writeManifest(paths, manifest)
  return manifest
}

async function writeManifest(paths: Pick<WorkspacePaths, 'dataDir'>, manifest: StageManifest): Promise<void> {
  await writeFileAtomic(
    join(stageDir(paths, manifest.runId), MANIFEST),
    `${JSON.stringify(manifest, null, 2)}\n`,
  )
}

/** The run's stage, or null when it has none (never held, already applied or discarded). */
export async function readStage(
  paths: Pick<WorkspacePaths, 'dataDir'>,
  runId: string,
): Promise<StageManifest | null> {
  const raw = await readOrNull(join(stageDir(paths, runId), MANIFEST))
  return raw === null ? null : (JSON.parse(raw.toString('utf8')) as StageManifest)
}

/** One side of a staged file, checked against its hash; null when the file is absent on that side. */
export async function readStagedSide(
  paths: Pick<WorkspacePaths, 'dataDir'>,
  runId: string,
  side: 'before' | 'after',
  file: StagedFile,
): Promise<Buffer | null> {
  const expected = file[side]
  if (expected === null) return null
  const content = await readFile(absolutePath(join(stageDir(paths, runId), side), file.path))
  if (sha256(content) !== expected) {
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `the staged ${side} of ${file.path} for ${runId} is damaged (sha256 mismatch); discard the run and dream again`,
    )
  }
  return content
}

export async function markStageSettled(
  paths: Pick<WorkspacePaths, 'dataDir'>,
  manifest: StageManifest,
): Promise<void> {
  await writeManifest(paths, { ...manifest, settled: true })
}

export async function removeStage(paths: Pick<WorkspacePaths, 'dataDir'>, runId: string): Promise<void> {
  await rm(stageDir(paths, runId), { recursive: true, force: true })
}

/** Run ids that have a stage folder (finished or not). */
export async function listStages(paths: Pick<WorkspacePaths, 'dataDir'>): Promise<string[]> {
  try {
    return (await readdir(stagesDir(paths), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}
