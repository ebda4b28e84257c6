// Creates a workspace's notes tree from notes-template/, never overwriting a file that exists.
import { copyFile, mkdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { MEMORY_FILES, type WorkspacePaths } from './paths.js'

export interface InitResult {
  created: string[]
  kept: string[]
}

/** Copies the missing memory files from the template and creates notes/daily and the data dir. */
export async function initWorkspace(paths: WorkspacePaths): Promise<InitResult> {
  await mkdir(paths.daily, { recursive: true })
  await mkdir(paths.memory, { recursive: true })
  await mkdir(paths.dataDir, { recursive: true })
  const created: string[] = []
  const kept: string[] = []
  for (const name of MEMORY_FILES) {
    const target = join(paths.memory, name)
    if (existsSync(target)) {
      kept.push(target)
      continue
    }
    // COPYFILE_EXCL: a file created meanwhile by another process is never overwritten.
    try {
      await copyFile(join(paths.template, name), target, 1)
      created.push(target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      kept.push(target)
    }
  }
  return { created, kept }
}
