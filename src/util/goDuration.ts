// Go's time.ParseDuration, for the options clients write as Go durations (the tracers' `timeout`: "10s", "1m30s",
// "500ms"), with Go's error texts: geth answers a bad one with the parser's error, so Sponge does too.

const NANOS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 }
/** Go's Duration is an int64 of nanoseconds. */
const MAX_NANOS = 2 ** 63 - 1

/** A Go duration in milliseconds (possibly fractional, possibly negative), or Go's error text. */
export function parseGoDuration(text: string): { ms: number } | { error: string } {
  const quoted = JSON.stringify(text)
  let s = text
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1
    s = s.slice(1)
  }
  if (s === '0') return { ms: 0 }
  if (s === '') return { error: `time: invalid duration ${quoted}` }
  let nanos = 0
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!
    if (number[0] === '' || number[0] === '.') return { error: `time: invalid duration ${quoted}` }
    s = s.slice(number[0].length)
    const unit = /^[^\d.]*/.exec(s)![0]
    if (unit === '') return { error: `time: missing unit in duration ${quoted}` }
    const scale = NANOS[unit]
    if (scale === undefined) return { error: `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}` }
    s = s.slice(unit.length)
    nanos += Number(`${number[1] || '0'}.${number[2] ?? ''}0`) * scale
    if (nanos > MAX_NANOS) return { error: `time: invalid duration ${quoted}` }
  }
  return { ms: (sign * nanos) / 1e6 }
}

/**
 * Go's time.Duration.String of `ms` milliseconds (rounded to nanoseconds): "10ms", "1.5s", "1m30s", "10m0s", "1h0m0s",
 * "500µs", "0s" — as geth writes a duration into its messages ("execution aborted (timeout = 100ms)").
 */
export function formatGoDuration(ms: number): string {
  let ns = Math.round(ms * 1e6)
  if (ns === 0) return '0s'
  const sign = ns < 0 ? '-' : ''
  ns = Math.abs(ns)
  // `n` units of 10^-digits, its fraction's trailing zeros dropped (Go's fmtFrac).
  const frac = (n: number, digits: number) => {
    const unit = 10 ** digits
    const rest = n % unit
    const whole = (n - rest) / unit
    return rest === 0 ? `${whole}` : `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`
  }
  if (ns < 1e3) return `${sign}${ns}ns`
  if (ns < 1e6) return `${sign}${frac(ns, 3)}µs`
  if (ns < 1e9) return `${sign}${frac(ns, 6)}ms`
  const h = Math.floor(ns / 3600e9)
  const m = Math.floor((ns % 3600e9) / 60e9)
  const s = ns % 60e9
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${frac(s, 9)}s`
}
