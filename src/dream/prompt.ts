// The dream prompt: the workspace's own skills/dream/SKILL.md when it has one, else the shipped one.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { WorkspacePaths } from '../notes/paths.js'

export function readDreamPrompt(paths: Pick<WorkspacePaths, 'workspace' | 'skills'>): string {
  const override = join(paths.workspace, 'skills', 'dream', 'SKILL.md')
  return readFileSync(existsSync(override) ? override : join(paths.skills, 'dream', 'SKILL.md'), 'utf8')
}
