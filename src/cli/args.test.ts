import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UsageError, dirFlag, formatDuration, intFlag, parseFlags, patternFlag, readFlag } from './args.js'
import { MAX_WORKERS, flag, parseArgs } from './flags.js'

describe('command-line parsing is strict', () => {
  it('reads values, = values and booleans of the command', () => {
    const a = parseArgs(['node', '--chain', 'dev', '--http.port=9000', '--no-mining', '--http.api', 'eth,testing'])
    expect(a.command).toBe('node')
    expect(flag(a, 'chain')).toBe('dev')
    expect(flag(a, 'http.port')).toBe(9000)
    expect(flag(a, 'no-mining')).toBe(true)
    expect(flag(a, 'metrics')).toBe(false)
    expect(flag(a, 'http.api')).toEqual(['eth', 'testing'])
    expect(parseArgs(['import', '--chain', 'g.json', 'chain.rlp']).positional).toEqual(['chain.rlp'])
  })
  it('an unknown flag is an error naming it (it used to be ignored: --http.prot 9000 started on the default port)', () => {
    expect(() => parseArgs(['node', '--http.prot', '9000'])).toThrow(/--http\.prot/)
    expect(() => parseArgs(['import', '--http.port', '9000', 'x.rlp'])).toThrow(/--http\.port/)
    expect(() => parseArgs(['frobnicate'])).toThrow(UsageError)
  })
  it('a bad value is an error naming the flag, at parse time', () => {
    expect(() => parseArgs(['node', '--http.port', '70000'])).toThrow(/--http\.port: expected an integer from 0 to 65535, got "70000"/)
    expect(() => parseArgs(['node', '--workers', 'two'])).toThrow(/--workers.*two/)
    expect(() => parseArgs(['node', '--workers', '-1'])).toThrow(UsageError)
    expect(() => parseArgs(['node', '--chain'])).toThrow(/--chain/)
    expect(() => parseArgs(['node', '--log.level', 'loud'])).toThrow(/--log\.level: expected one of error, warn, info, debug/)
    expect(() => parseArgs(['node', '--http.api', 'eth,admin'])).toThrow(/--http\.api: unknown entry "admin"/)
    expect(() => parseArgs(['node', '--rpc.evmtimeout', 'soon'])).toThrow(/--rpc\.evmtimeout.*soon/)
  })
  it('an out-of-bounds number is refused with the range', () => {
    expect(() => parseArgs(['node', '--workers', '100000'])).toThrow(
      new UsageError(`--workers: expected an integer from 1 to ${MAX_WORKERS}, got "100000"`),
    )
    expect(() => parseArgs(['node', '--workers', '0'])).toThrow(/--workers: expected an integer from 1 to/)
    expect(() => parseArgs(['node', '--workers.engine', '65'])).toThrow(/--workers\.engine: expected an integer from 1 to 64/)
    expect(() => parseArgs(['node', '--rpc.maxqueue', '0'])).toThrow(/--rpc\.maxqueue: expected an integer from 1 to/)
    expect(() => parseArgs(['node', '--rpc.gascap', '20999'])).toThrow(/--rpc\.gascap: expected an integer of at least 21000/)
    expect(() => parseArgs(['node', '--rpc.evmtimeout', '2h'])).toThrow(/--rpc\.evmtimeout/)
    expect(() => parseArgs(['node', '--rpc.evmtimeout', '61m'])).toThrow(/--rpc\.evmtimeout: expected a duration from 1ms to 60m/)
    expect(() => parseArgs(['node', '--rpc.evmtimeout', '0'])).toThrow(/from 1ms/)
    expect(MAX_WORKERS).toBeGreaterThanOrEqual(4)
    expect(MAX_WORKERS).toBeLessThanOrEqual(256)
  })
  it('durations are written as geth writes them, or plain seconds', () => {
    expect(flag(parseArgs(['node', '--rpc.evmtimeout', '500ms']), 'rpc.evmtimeout')).toBe(500)
    expect(flag(parseArgs(['node', '--rpc.evmtimeout', '2']), 'rpc.evmtimeout')).toBe(2000)
    expect(flag(parseArgs(['node', '--rpc.evmtimeout', '1.5s']), 'rpc.evmtimeout')).toBe(1500)
    expect(flag(parseArgs(['node', '--rpc.evmtimeout', '1m']), 'rpc.evmtimeout')).toBe(60_000)
    expect([5000, 500, 60_000, 1500].map(formatDuration)).toEqual(['5s', '500ms', '1m', '1500ms'])
  })
  it("a script's flags: the same strict rules, its own table", () => {
    expect(parseFlags(['--rounds', '3', '--only', 'x'], { rounds: 'string', only: 'string' }).flags.get('rounds')).toBe('3')
    expect(() => parseFlags(['--round', '3'], { rounds: 'string' })).toThrow(/--round/)
    expect(readFlag('n', { kind: 'int', help: '', min: 2, max: 5 }, '5')).toBe(5)
  })
})

describe("scripts' integer and pattern flags", () => {
  it('reads them, takes the fallback when absent, and refuses a bad one naming the flag', () => {
    const flags = new Map([
      ['jobs', '3'],
      ['limit', '-1'],
      ['only', 'a|b'],
      ['bad', '('],
    ])
    expect(intFlag(flags, 'jobs', 1, 1)).toBe(3)
    expect(intFlag(flags, 'show', 8, 0)).toBe(8)
    expect(() => intFlag(flags, 'limit', 0, 0)).toThrow(UsageError)
    expect(() => intFlag(flags, 'jobs', 1, 4)).toThrow(/--jobs: expected an integer of at least 4, got "3"/)
    expect(patternFlag(flags, 'only')?.test('b')).toBe(true)
    expect(patternFlag(flags, 'missing')).toBeUndefined()
    expect(() => patternFlag(flags, 'bad')).toThrow(/--bad: /)
  })

  it('takes a directory flag that names a directory, and refuses one absent, missing or a file naming the flag', () => {
    const dir = tmpdir()
    const file = join(dir, `sponge-args-${process.pid}.json`)
    writeFileSync(file, '{}')
    try {
      const flags = new Map([
        ['fixtures', dir],
        ['gone', join(dir, 'sponge-args-no-such-dir')],
        ['file', file],
      ])
      expect(dirFlag(flags, 'fixtures', 'the fixtures')).toBe(dir)
      expect(() => dirFlag(flags, 'absent', 'the fixtures')).toThrow(/--absent <dir> is required: the fixtures/)
      expect(() => dirFlag(flags, 'gone', 'x')).toThrow(new UsageError(`--gone: no directory at ${join(dir, 'sponge-args-no-such-dir')}`))
      expect(() => dirFlag(flags, 'file', 'x')).toThrow(/--file: no directory at /)
    } finally {
      rmSync(file, { force: true })
    }
  })
})
