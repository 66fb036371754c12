import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NODE_DEFAULTS } from '../node/defaults.js'
import { BUILT_CLI, REPO_ROOT } from '../testing/paths.js'
import { silentLogger } from '../util/logger.js'
import { type FlagSpec, defaultText } from './args.js'
import { FLAGS, parseArgs, usage } from './flags.js'
import { nodeOptions } from './nodeCommand.js'

const TABLE = Object.entries(FLAGS as Record<string, FlagSpec>)

/** The line of the usage text that describes --name. */
function usageLine(text: string, name: string): string | undefined {
  return text.split('\n').find((l) => new RegExp(`^\\s+--${name.replaceAll('.', '\\.')}(\\s|$)`).test(l))
}

describe('the usage text is generated from the flag table', () => {
  it('lists every flag of the table, with its default', () => {
    const text = usage()
    for (const [name, spec] of TABLE) {
      const line = usageLine(text, name)
      expect(line, `--${name} in the usage text`).toBeDefined()
      const d = defaultText(spec)
      if (d !== undefined) expect(line, `--${name}'s default`).toContain(`(default ${d})`)
    }
  })
  it('names the call and log limits the hand-written text left out', () => {
    const text = usage()
    expect(usageLine(text, 'rpc.gascap')).toContain(`(default ${NODE_DEFAULTS.gasCap})`)
    expect(usageLine(text, 'rpc.evmtimeout')).toContain('(default 5s)')
    expect(usageLine(text, 'rpc.logs.maxrange')).toContain(`(default ${NODE_DEFAULTS.logsMaxRange})`)
    expect(usageLine(text, 'rpc.logs.maxresults')).toContain(`(default ${NODE_DEFAULTS.logsMaxResults})`)
  })
  it("README.md's Command line block is the usage text (sponge --help), so the docs cannot drift", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
    const block = /## Command line\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1]
    expect(block, "README.md's Command line code block").toBeDefined()
    expect(block, "README.md's Command line block: paste the output of `sponge --help`").toBe(usage())
  })
  it('the built CLI prints it for --help and with a usage error (exit 2)', () => {
    const help = spawnSync(process.execPath, [BUILT_CLI, 'node', '--help'], { encoding: 'utf8' })
    expect(help.status).toBe(0)
    expect(help.stdout).toBe(`${usage()}\n`)
    const bad = spawnSync(process.execPath, [BUILT_CLI, 'node', '--workers', '100000'], { encoding: 'utf8' })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/^--workers: expected an integer from 1 to \d+, got "100000"\n/)
    expect(bad.stderr).toContain(usage())
  })
})

describe("the CLI's defaults are the node's (NODE_DEFAULTS), not a second copy", () => {
  /** Node settings no flag sets: startNode's own default applies. */
  const NO_FLAG = new Set(['drainTimeoutMs'])
  /** Defaults startNode applies by a rule over other settings: given only when the flag is. */
  const BY_RULE = new Set(['healthMaxAge'])
  /** Settings of an endpoint, each in its own object. */
  const ENDPOINTS = new Set(['http', 'authrpc', 'metrics'])

  it('sponge node with no flags runs with NODE_DEFAULTS', () => {
    const o = nodeOptions('/data', parseArgs(['node', '--metrics']), silentLogger)
    const d = NODE_DEFAULTS
    expect(o.http).toEqual({ host: d.http.host, port: d.http.port, apis: d.http.apis, vhosts: d.http.vhosts, corsOrigins: d.http.corsOrigins })
    expect(o.authrpc).toEqual({
      host: d.authrpc.host,
      port: d.authrpc.port,
      vhosts: d.authrpc.vhosts,
      jwtSecretPath: join('/data', d.authrpc.jwtSecretFile),
    })
    expect(o.metrics).toEqual(d.metrics)
    const scalars = Object.keys(d).filter((k) => !NO_FLAG.has(k) && !ENDPOINTS.has(k) && !BY_RULE.has(k))
    expect(scalars.length).toBeGreaterThan(10)
    for (const k of scalars) expect(o[k as keyof typeof o], k).toEqual(d[k as keyof typeof d])
    expect(o.dev).toEqual({})
    expect(o.showProgress).toBe(true)
    for (const k of BY_RULE) expect(o[k as keyof typeof o], k).toBeUndefined()
  })
  it('a flag given wins over the default', () => {
    const o = nodeOptions(
      '/data',
      parseArgs([
        'node',
        '--rpc.gascap',
        '30000000',
        '--rpc.evmtimeout',
        '250ms',
        '--workers',
        '1',
        '--http.vhosts',
        'a.example,b.example',
        '--authrpc.jwtsecret',
        '/s/jwt',
      ]),
      silentLogger,
    )
    expect(o).toMatchObject({
      gasCap: 30_000_000n,
      evmTimeoutMs: 250,
      workers: 1,
      http: { vhosts: ['a.example', 'b.example'] },
      authrpc: { jwtSecretPath: '/s/jwt' },
    })
    expect(o.metrics).toBeUndefined()
    expect(o.allowUnprotectedTxs).toBe(false)
    expect(nodeOptions('/data', parseArgs(['node', '--rpc.allow-unprotected-txs']), silentLogger).allowUnprotectedTxs).toBe(true)
    expect(nodeOptions('/data', parseArgs(['node', '--health.maxage', '0']), silentLogger).healthMaxAge).toBe(0)
    // The KZG setup loads once the node serves (issue 31 item 7), unless the node is told no blob will come soon.
    expect(nodeOptions('/data', parseArgs(['node']), silentLogger).kzgAtStart).toBe(true)
    expect(nodeOptions('/data', parseArgs(['node', '--no-kzg-preload']), silentLogger).kzgAtStart).toBe(false)
  })
  it('dev mode: on for --chain dev unless --no-mining, and for --dev.period on any chain', () => {
    expect(nodeOptions('/d', parseArgs(['node', '--no-mining']), silentLogger).dev).toBeUndefined()
    expect(nodeOptions('/d', parseArgs(['node', '--chain', 'g.json']), silentLogger).dev).toBeUndefined()
    expect(nodeOptions('/d', parseArgs(['node', '--chain', 'g.json', '--dev.period', '3']), silentLogger).dev).toEqual({ period: 3 })
    expect(() => nodeOptions('/d', parseArgs(['node', 'extra']), silentLogger)).toThrow(/takes no arguments/)
  })
})
