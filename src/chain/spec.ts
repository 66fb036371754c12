import { paramsBlock } from '@ethereumjs/block'
import { Common, type ParamsDict, parseGethGenesis } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { customCrypto } from '../crypto/customCrypto.js'
import { GAS_PER_BLOB } from './blobFee.js'
import { hexToBytes } from '../util/hex.js'
import { type BlobParams, FORKS, FORK_INDEX, type ForkName, type ScheduledFork } from './forks.js'
import { type GethGenesisFile, genesisNumber } from './genesis.js'

/**
 * `params` for EthereumJS's transaction, header and block constructors given a spec's Common: that Common holds the
 * libraries' parameter sets already, so the constructor merges nothing. Without it each constructor merges its
 * library's set again — a deep copy of the set and a rebuild of the parameter cache per object: decoding an
 * EIP-1559 transfer took 79-120 µs so, 35-49 µs with an empty set (2026-11-27, Node 20).
 */
export const SPEC_PARAMS: ParamsDict = {}

/**
 * Everything Sponge derives from a genesis file: the fork schedule, blob schedule, and the EthereumJS Common
 * (with our crypto and the BPO blob parameters EthereumJS does not read from geth genesis files by itself).
 */
export class ChainSpec {
  readonly chainId: bigint
  readonly forks: readonly ScheduledFork[]
  readonly blobSchedule: Partial<Record<ForkName, BlobParams>>
  readonly depositContract: Uint8Array | undefined
  readonly terminalTotalDifficulty: bigint | undefined
  /** Whether the chain takes the DAO fork's balance move at `daoForkBlock` (geth's `daoForkSupport`). */
  readonly daoForkSupport: boolean
  readonly genesisTime: bigint
  private readonly baseCommon: Common

  constructor(readonly genesis: GethGenesisFile) {
    const cfg = genesis.config
    this.chainId = genesisNumber(cfg.chainId)
    const forks: ScheduledFork[] = []
    for (const f of FORKS) {
      const v = cfg[f.key]
      if (v === undefined || v === null) continue
      forks.push({ name: f.name, by: f.by, at: genesisNumber(v) })
    }
    this.forks = forks
    const schedule: Partial<Record<ForkName, BlobParams>> = {}
    for (const [name, p] of Object.entries(cfg.blobSchedule ?? {})) {
      if (!(name in FORK_INDEX)) throw new Error(`blobSchedule names an unknown fork: ${name}`)
      schedule[name as ForkName] = { target: p.target, max: p.max, baseFeeUpdateFraction: p.baseFeeUpdateFraction }
    }
    this.blobSchedule = schedule
    const dep = cfg.depositContractAddress
    this.depositContract = typeof dep === 'string' ? hexToBytes(dep) : undefined
    this.terminalTotalDifficulty = cfg.terminalTotalDifficulty === undefined ? undefined : genesisNumber(cfg.terminalTotalDifficulty)
    this.daoForkSupport = cfg.daoForkSupport === true
    this.genesisTime = genesisNumber(genesis.timestamp)
    this.baseCommon = this.buildCommon()
  }

  private buildCommon(): Common {
    // EthereumJS knows the blob-parameter-only forks through bpo2 and refuses a genesis whose blobSchedule names a
    // later one (execution-spec-tests' BPO2ToBPO3 networks). They change no EIP, only the blob target, maximum and
    // update fraction: every BPO fork of the genesis is given to EthereumJS as a hardfork of our own with those, and
    // left out of the blobSchedule it parses. (getBlobGasSchedule reads `target`/`max` from BPO1 on.)
    const bpo: Record<string, { eips: number[]; params: Record<string, number> }> = {}
    const blobSchedule: Record<string, unknown> = {}
    for (const [name, p] of Object.entries(this.genesis.config.blobSchedule ?? {})) {
      if (!name.startsWith('bpo')) {
        blobSchedule[name] = p
        continue
      }
      bpo[name] = {
        eips: [],
        params: {
          target: p.target,
          max: p.max,
          blobGasPriceUpdateFraction: p.baseFeeUpdateFraction,
          targetBlobGasPerBlock: p.target * Number(GAS_PER_BLOB),
          maxBlobGasPerBlock: p.max * Number(GAS_PER_BLOB),
        },
      }
    }
    // EthereumJS insists on fields geth lets a genesis file omit.
    const geth = {
      nonce: '0x0',
      timestamp: '0x0',
      extraData: '0x',
      difficulty: '0x0',
      mixHash: `0x${'00'.repeat(32)}`,
      coinbase: `0x${'00'.repeat(20)}`,
      ...this.genesis,
      config: { ...this.genesis.config, blobSchedule },
    }
    const chain = parseGethGenesis(geth as never, 'sponge')
    const common = new Common({
      chain: { ...chain, customHardforks: { ...chain.customHardforks, ...bpo } } as never,
      hardfork: chain.hardfork,
      customCrypto: customCrypto(),
    })
    common.updateParams(paramsBlock)
    common.updateParams(paramsTx)
    return common
  }

  /** Commons of the forks scheduled by time, made once each (commonAt). */
  private readonly timeCommons = new Map<ForkName, Common>()

  /**
   * A Common set to the fork of the given block, shared: not to be changed (EthereumJS's constructors copy what they
   * are given). Setting a copy's fork rebuilds its parameter cache (~25 µs, three times a send on a dev chain that
   * mines on demand), so a fork scheduled by time, the latest of which decides a block's rules alone, has one kept;
   * the forks by block number (and the merge by total difficulty, which EthereumJS weighs too) get a fresh one.
   */
  commonAt(number: bigint, timestamp: bigint): Common {
    const fork = this.forkAt(number, timestamp)
    const byTime = this.forks.find((f) => f.name === fork)?.by === 'time'
    const kept = byTime ? this.timeCommons.get(fork as ForkName) : undefined
    if (kept !== undefined) return kept
    const c = this.baseCommon.copy()
    c.setHardforkBy({ blockNumber: number, timestamp })
    if (byTime) this.timeCommons.set(fork as ForkName, c)
    return c
  }

  /**
   * The rules of the block after `head`, as the pool and the wallet judge a transaction: the next number, 12 s on
   * (geth's pool takes the next block's rules the same way).
   */
  commonAfter(head: { number: bigint; timestamp: bigint }): Common {
    return this.commonAt(head.number + 1n, head.timestamp + 12n)
  }

  /** The Common to hand to block/tx constructors, which set their own hardfork from the header. */
  get common(): Common {
    return this.baseCommon
  }

  isActive(fork: ForkName, number: bigint, timestamp: bigint): boolean {
    const f = this.forks.find((x) => x.name === fork)
    if (f === undefined) return false
    return f.by === 'block' ? number >= f.at : timestamp >= f.at
  }

  /** The latest fork active at (number, time); 'frontier' when none is. */
  forkAt(number: bigint, timestamp: bigint): ForkName | 'frontier' {
    let current: ForkName | 'frontier' = 'frontier'
    for (const f of this.forks) {
      if (f.by === 'block' ? number >= f.at : timestamp >= f.at) current = f.name
    }
    return current
  }

  /** Blob parameters in force at a timestamp: those of the latest active fork that has an entry. */
  blobParamsAt(timestamp: bigint): BlobParams | undefined {
    let p: BlobParams | undefined
    for (const f of this.forks) {
      if (f.by !== 'time' || timestamp < f.at) continue
      p = this.blobSchedule[f.name] ?? p
    }
    return p
  }

  /** Post-merge from the block on (by number: the merge block of mergeNetsplitBlock). */
  isPostMerge(number: bigint): boolean {
    const paris = this.forks.find((x) => x.name === 'paris')
    if (paris !== undefined) return number >= paris.at
    return this.forks.some((x) => x.by === 'time' && x.at <= this.genesisTime)
  }
}
