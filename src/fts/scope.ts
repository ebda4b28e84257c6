// What the index covers: search roots inside the workspace, the listed extensions, and the path rules.
import { realpath } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { ResolvedConfig } from '../config/schema.js'
import type { SecretKind } from '../secrets/types.js'
import { isTempOrHidden } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'

export interface IndexScope {
  workspace: string
  /** The workspace with symlinks resolved: anything whose real path is outside it is never indexed. */
  workspaceReal: string
  /** Workspace-relative roots with '/' separators ('' is the workspace itself); none nested in another. */
  roots: string[]
  /** Each root's real path (a root may itself be a symlink to a folder inside the workspace). */
  rootReals: Map<string, string>
  /** Lower-cased, with the dot. */
  extensions: Set<string>
  /** Changes when roots or extensions do; a changed fingerprint forces a full walk. */
  fingerprint: string
  /** Secret kinds the chunks keep (`privacy.keepSecretKinds`); every other secret is withheld as it is stored. */
  keepSecretKinds: readonly SecretKind[]
}

/** What the index needs of the config: its roots, and which secret kinds its chunks may keep. */
export type IndexConfig = Pick<ResolvedConfig, 'search'> & {
  /** @default every kind withheld */
  privacy?: Pick<ResolvedConfig['privacy'], 'keepSecretKinds'>
}

export async function resolveScope(
  paths: Pick<WorkspacePaths, 'workspace'>,
  config: IndexConfig,
): Promise<IndexScope> {
  const workspace = resolve(paths.workspace)
  const workspaceReal = await realpath(workspace).catch(() => workspace)
  const candidates: string[] = []
  const rootReals = new Map<string, string>()
  for (const root of config.search.roots) {
    const abs = resolve(workspace, root)
    const rel = abs === workspace ? '' : toWorkspacePath(workspace, abs)
    if (rel === undefined) continue // a root outside the workspace is never searched
    const real = await realpath(abs).catch(() => undefined)
    if (real !== undefined && !isInside(workspaceReal, real)) continue // symlinked out of the workspace
    candidates.push(rel)
    rootReals.set(rel, real ?? join(workspaceReal, ...rel.split('/')))
  }
  const roots = [...new Set(candidates)]
    .sort((a, b) => a.length - b.length)
    .filter((root, index, all) => !all.slice(0, index).some((outer) => isBelow(outer, root)))
    .sort()
  const extensions = new Set(config.search.extensions.map((ext) => ext.toLowerCase()))
  const fingerprint = JSON.stringify({ roots, extensions: [...extensions].sort() })
  const keepSecretKinds = [...new Set(config.privacy?.keepSecretKinds ?? [])].sort()
  return { workspace, workspaceReal, roots, rootReals, extensions, fingerprint, keepSecretKinds }
}

/**
 * Where the directory holding `rel` really is when no symlink sits between its root and it, as a walk
 * requires; undefined when `rel` is under no root.
 */
export function realParentOf(scope: IndexScope, rel: string): string | undefined {
  const root = scope.roots.find((candidate) => isBelow(candidate, rel))
  const rootReal = root === undefined ? undefined : scope.rootReals.get(root)
  if (root === undefined || rootReal === undefined) return undefined
  const below = parentOf(root === '' ? rel : rel.slice(root.length + 1))
  return below === '' ? rootReal : join(rootReal, ...below.split('/'))
}

export function absOf(scope: IndexScope, rel: string): string {
  return rel === '' ? scope.workspace : join(scope.workspace, ...rel.split('/'))
}

export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`
}

export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/')
  return slash < 0 ? '' : rel.slice(0, slash)
}

/** True when `rel` is strictly below directory `dir` ('' holds everything). */
export function isBelow(dir: string, rel: string): boolean {
  return dir === '' ? rel !== '' : rel.startsWith(`${dir}/`)
}

export function hasIndexedExtension(scope: IndexScope, name: string): boolean {
  const dot = name.lastIndexOf('.')
  return dot > 0 && scope.extensions.has(name.slice(dot).toLowerCase())
}

/** A file name the walk would index: not hidden, not a temp file, with a listed extension. */
export function isIndexableName(scope: IndexScope, name: string): boolean {
  return !isTempOrHidden(name) && hasIndexedExtension(scope, name)
}

/** The path rules alone (no disk access): under a root, no hidden or temp segment, a listed extension. */
export function isInScope(scope: IndexScope, rel: string): boolean {
  const root = scope.roots.find((candidate) => isBelow(candidate, rel))
  if (root === undefined) return false
  const below = (root === '' ? rel : rel.slice(root.length + 1)).split('/')
  const name = below.at(-1) ?? ''
  return below.every((segment) => segment !== '' && !isTempOrHidden(segment)) && isIndexableName(scope, name)
}

export function isInside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : `${parent}${sep}`)
}

/** `path` relative to `workspace` with '/' separators, or undefined when it lies outside. */
export function toWorkspacePath(workspace: string, path: string): string | undefined {
  const rel = relative(workspace, resolve(workspace, path))
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined
  return rel.split(sep).join('/')
}
