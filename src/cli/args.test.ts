import { describe, expect, it } from 'vitest'
import { UsageError, intFlag, parseArgs, portFlag } from './args.js'

describe('command-line parsing is strict', () => {
  it('reads values, = values and booleans of the command', () => {
    const a = parseArgs(['node', '--chain', 'dev', '--http.port=9000', '--no-mining', '--http.api', 'eth,testing'])
    expect(a.command).toBe('node')
    expect(a.flags.get('chain')).toBe('dev')
    expect(portFlag(a, 'http.port', 1234)).toBe(9000)
    expect(a.flags.get('no-mining')).toBe('true')
    expect(parseArgs(['import', '--chain', 'g.json', 'chain.rlp']).positional).toEqual(['chain.rlp'])
  })
  it('an unknown flag is an error naming it (it used to be ignored: --http.prot 9000 started on the default port)', () => {
    expect(() => parseArgs(['node', '--http.prot', '9000'])).toThrow(/--http\.prot/)
    expect(() => parseArgs(['import', '--http.port', '9000', 'x.rlp'])).toThrow(/--http\.port/)
    expect(() => parseArgs(['frobnicate'])).toThrow(UsageError)
  })
  it('a bad value is an error naming the flag', () => {
    expect(() => portFlag(parseArgs(['node', '--http.port', '70000']), 'http.port', 1234)).toThrow(/--http\.port/)
    expect(() => intFlag(parseArgs(['node', '--workers', 'two']), 'workers', 1)).toThrow(/--workers.*two/)
    expect(() => intFlag(parseArgs(['node', '--workers', '-1']), 'workers', 1)).toThrow(UsageError)
    expect(() => parseArgs(['node', '--chain'])).toThrow(/--chain/)
  })
})
