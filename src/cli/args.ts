import { statSync } from 'node:fs'
import { parseArgs as parseWithNode } from 'node:util'

/** A command line that cannot be run as given: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** How a flag's value is read: `int` and `port` are decimal integers, `duration` is milliseconds. */
export type FlagKind = 'string' | 'boolean' | 'int' | 'port' | 'duration' | 'list' | 'enum'

/** One flag of a table: how its value is read and checked, its default, and its line of usage text. */
export interface FlagSpec {
  readonly kind: FlagKind
  /** One line for the usage text. */
  readonly help: string
  /** What the value is, in the usage text: `--name <arg>`. */
  readonly arg?: string
  /** The value when the flag is absent (a duration in milliseconds); none, and an absent flag reads undefined. */
  readonly default?: string | number | readonly string[]
  /** The default in words, shown instead, where it depends on other flags or on the machine. */
  readonly defaultText?: string
  /** int, port and duration: the smallest and largest accepted (a port: 0 to 65535 unless given). */
  readonly min?: number
  readonly max?: number
  /** enum: the one accepted; list: the entries accepted. */
  readonly values?: readonly string[]
}

export interface ParsedArgs {
  command: string | undefined
  positional: string[]
  flags: Map<string, string>
}

/** Flags of a script (bench, conformance runner) or a command: strict (node:util's parseArgs), unknown ones refused. */
export function parseFlags(argv: string[], known: Record<string, 'string' | 'boolean'>): Omit<ParsedArgs, 'command'> {
  let parsed: ReturnType<typeof parseWithNode>
  try {
    parsed = parseWithNode({
      args: argv,
      options: Object.fromEntries(Object.entries(known).map(([name, type]) => [name, { type }])),
      strict: true,
      allowPositionals: true,
    })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const flags = new Map<string, string>()
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || typeof value === 'boolean') flags.set(name, String(value))
  }
  return { positional: parsed.positionals, flags }
}

/** A script's integer flag: `fallback` when absent; not a decimal integer of at least `min` is a UsageError naming it. */
export function intFlag(flags: Map<string, string>, name: string, fallback: number, min: number): number {
  const raw = flags.get(name)
  if (raw === undefined) return fallback
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name}: expected an integer of at least ${min}, got "${raw}"`)
  return n
}

/** A script's regular-expression flag (`--only`): undefined when absent; one that does not compile is a UsageError naming it. */
export function patternFlag(flags: Map<string, string>, name: string): RegExp | undefined {
  const raw = flags.get(name)
  if (raw === undefined) return undefined
  try {
    return new RegExp(raw)
  } catch (e) {
    throw new UsageError(`--${name}: ${(e as Error).message}`)
  }
}

/**
 * A script's required directory flag (`--fixtures <dir>`): absent, or naming no directory, is a UsageError naming it
 * (not a stack trace from the first read).
 */
export function dirFlag(flags: Map<string, string>, name: string, what: string): string {
  const raw = flags.get(name)
  if (raw === undefined) throw new UsageError(`--${name} <dir> is required: ${what}`)
  if (!statSync(raw, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--${name}: no directory at ${raw}`)
  return raw
}

/** Runs a script's `main`: its answer is the exit code; a UsageError is printed with `usage`, exit code 2. */
export async function runScript(main: (argv: string[]) => Promise<number>, usage: string): Promise<void> {
  try {
    process.exitCode = await main(process.argv.slice(2))
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    process.stderr.write(`${e.message}\n\n${usage}`)
    process.exitCode = 2
  }
}

/** The value of a flag as given on the command line, read and checked by its spec; a bad one is a UsageError naming it. */
export function readFlag(name: string, spec: FlagSpec, raw: string): string | number | boolean | string[] {
  switch (spec.kind) {
    case 'boolean':
      return true
    case 'string':
      return raw
    case 'int':
    case 'port': {
      const [min, max] = intBounds(spec)
      const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
      if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name}: expected ${describeInt(min, max)}, got "${raw}"`)
      return n
    }
    case 'duration': {
      const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw)
      const ms = m === null ? Number.NaN : Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000)
      const min = spec.min ?? 0
      const max = spec.max ?? Number.MAX_SAFE_INTEGER
      if (!(ms >= min && ms <= max)) {
        const range = spec.max === undefined ? `of at least ${formatDuration(min)}` : `from ${formatDuration(min)} to ${formatDuration(max)}`
        throw new UsageError(`--${name}: expected a duration ${range} (such as 5s, 500ms, 1m, or plain seconds), got "${raw}"`)
      }
      return ms
    }
    case 'enum':
      if (!(spec.values ?? []).includes(raw)) throw new UsageError(`--${name}: expected one of ${(spec.values ?? []).join(', ')}, got "${raw}"`)
      return raw
    case 'list': {
      const entries = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
      const bad = spec.values === undefined ? undefined : entries.find((e) => !spec.values!.includes(e))
      if (bad !== undefined) throw new UsageError(`--${name}: unknown entry "${bad}", expected some of ${spec.values!.join(', ')}`)
      return entries
    }
  }
}

/** The value of an absent flag: its default (a list copied), false for a boolean, else undefined. */
export function defaultOf(spec: FlagSpec): string | number | boolean | string[] | undefined {
  if (spec.kind === 'boolean') return false
  return Array.isArray(spec.default) ? [...(spec.default as readonly string[])] : (spec.default as string | number | undefined)
}

/** The default as the usage text shows it (and as it would be typed), or undefined when there is none. */
export function defaultText(spec: FlagSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText
  const d = spec.default
  if (d === undefined) return undefined
  if (typeof d === 'number') return spec.kind === 'duration' ? formatDuration(d) : String(d)
  if (typeof d === 'string') return d
  return d.length === 0 ? 'none' : d.join(',')
}

function intBounds(spec: FlagSpec): [number, number] {
  return [spec.min ?? 0, spec.max ?? (spec.kind === 'port' ? 65535 : Number.MAX_SAFE_INTEGER)]
}

function describeInt(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`
}

/** Milliseconds the way a duration flag is written: 5s, 500ms, 1m. */
export function formatDuration(ms: number): string {
  if (ms !== 0 && ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms !== 0 && ms % 1000 === 0) return `${ms / 1000}s`
  return `${ms}ms`
}
