// Recognises a command line commander would parse only one way: global options and a command's words, nothing else.
// Such a run skips commander (loading it and building every option costs about 10 ms of `dreamlane status`);
// any other line, help and errors included, goes to commander as before.
import type { GlobalOptions } from './context.js'

/** The global options that take a value, by every name commander knows them by, and the key they set. */
const WITH_VALUE: Record<string, 'workspace' | 'dataDir' | 'messagesDb' | 'tz'> = {
  '-w': 'workspace',
  '--workspace': 'workspace',
  '--data-dir': 'dataDir',
  '--messages-db': 'messagesDb',
  '--tz': 'tz',
}

export interface PlainInvocation {
  command: string
  options: GlobalOptions
}

/**
 * The command and global options of `args` (argv after the script) when its words, in order and joined by a
 * space, are one of `commands` (`status`, `backups create`) and the rest is only global options, before or after it, spelt `--opt value`, `--opt=value`, `-w value`, `-wvalue`
 * or `--json` (a repeated option: the last wins, as in commander). Null for anything else: another word, `--`,
 * help or version, an unknown option, a missing value or one that starts with `-`.
 */
export function plainInvocation(
  args: readonly string[],
  commands: ReadonlySet<string>,
): PlainInvocation | null {
  const options: GlobalOptions = {}
  const words: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--json') {
      options.json = true
      continue
    }
    if (!arg.startsWith('-')) {
      words.push(arg)
      continue
    }
    const [name, value] = splitOption(arg, () => args[++i])
    const key = name === undefined ? undefined : WITH_VALUE[name]
    if (key === undefined || value === undefined || value.startsWith('-')) return null
    options[key] = value
  }
  const command = words.join(' ')
  return commands.has(command) ? { command, options } : null
}

/** `--opt=value` → [--opt, value]; `-wvalue` → [-w, value]; otherwise [arg, the next argument]. */
function splitOption(arg: string, next: () => string | undefined): [string | undefined, string | undefined] {
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=')
    return eq === -1 ? [arg, next()] : [arg.slice(0, eq), arg.slice(eq + 1)]
  }
  return arg.length > 2 ? [arg.slice(0, 2), arg.slice(2)] : [arg, next()]
}
