/** Command-line flags in geth/reth style: `--name value`, `--name=value`, and bare `--flag` for booleans. */
export interface ParsedArgs {
  command: string | undefined
  positional: string[]
  flags: Map<string, string>
}

const BOOLEAN_FLAGS = new Set(['help', 'dev', 'no-progress', 'no-mining'])

export function parseArgs(argv: string[]): ParsedArgs {
  const flags = new Map<string, string>()
  const positional: string[] = []
  let command: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      if (eq > 0) {
        flags.set(a.slice(2, eq), a.slice(eq + 1))
        continue
      }
      const name = a.slice(2)
      if (BOOLEAN_FLAGS.has(name)) {
        flags.set(name, 'true')
        continue
      }
      const value = argv[i + 1]
      if (value === undefined || value.startsWith('--')) throw new Error(`flag --${name} needs a value`)
      flags.set(name, value)
      i++
    } else if (command === undefined) {
      command = a
    } else {
      positional.push(a)
    }
  }
  return { command, positional, flags }
}

export function intFlag(args: ParsedArgs, name: string, fallback: number): number {
  const v = args.flags.get(name)
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${v}`)
  return n
}

export function stringFlag(args: ParsedArgs, name: string, fallback: string): string {
  return args.flags.get(name) ?? fallback
}
