import { secp256k1 } from '@noble/curves/secp256k1.js'
import { Fork } from '../chain/evmFork.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToWord } from '../evm/words.js'
import { type Action, assemble, CONTRACTS, EMPTY, initCode, MISSING, type ProgramWorld, program } from './evmPrograms.js'
import { Random } from './evmRandom.js'

// A case of the EVM fuzzer: a fork, a block, a pre-state (the sender, EIP-7702 authorities, contracts running
// generated programs, an empty account) and one to three transactions from the sender — calls, creates, value
// transfers, access lists and authorization lists where the fork has them — run one after another on it. Everything is
// drawn from the case's seed; the contracts' programs stay action lists so that a disagreement can shrink.

/** The keys that sign: the sender, then the EIP-7702 authorities. */
export const KEYS: readonly Uint8Array[] = [1, 2, 3].map((k) => new Uint8Array(32).fill(0x10 + k))
export const ADDRESSES: readonly bigint[] = KEYS.map((k) => bytesToWord(keccak256(secp256k1.getPublicKey(k, false).subarray(1)).subarray(12)))
export const SENDER = ADDRESSES[0]!
export const CHAIN_ID = 1n

export interface FuzzAccount {
  address: bigint
  nonce: bigint
  balance: bigint
  /** A contract's program; undefined for an account with `code` as it is (none, or an EIP-7702 delegation). */
  program: Action[] | undefined
  code: Uint8Array
  storage: Map<bigint, bigint>
}

export interface FuzzAuthorization {
  /** Which of KEYS signs it. */
  key: number
  chainId: bigint
  address: bigint
  nonce: bigint
}

export interface FuzzTx {
  /** 0 legacy, 1 access list, 2 fee market, 4 set code. */
  type: 0 | 1 | 2 | 4
  nonce: bigint
  /** Undefined: a creation, with `data` its init code. */
  to: bigint | undefined
  value: bigint
  gasLimit: bigint
  /** The gas price (types 0 and 1) or the fee cap. */
  maxFee: bigint
  tip: bigint
  data: Uint8Array
  accessList: { address: bigint; storageKeys: bigint[] }[]
  authorizations: FuzzAuthorization[]
}

export interface FuzzBlock {
  coinbase: bigint
  number: bigint
  timestamp: bigint
  gasLimit: bigint
  difficulty: bigint
  prevRandao: bigint
  /** From London. */
  baseFee: bigint
}

export interface FuzzCase {
  seed: number
  fork: Fork
  block: FuzzBlock
  accounts: FuzzAccount[]
  txs: FuzzTx[]
}

/** Each account's code: a contract's program assembled for the case's fork. */
export function codeOf(c: FuzzCase, a: FuzzAccount): Uint8Array {
  return a.program === undefined ? a.code : assemble(a.program, c.fork)
}

const delegation = (to: bigint): Uint8Array => Uint8Array.from(Buffer.from(`ef0100${to.toString(16).padStart(40, '0')}`, 'hex'))

/** The case of `seed` in `fork`. */
export function generateCase(seed: number, fork: Fork): FuzzCase {
  const r = new Random(seed)
  const huge = fork < Fork.osaka && r.chance(0.04) // a transaction past 2^53 gas (EIP-7825 caps it from Osaka)
  const coinbase = r.pick([0xc0ffeen, 0xc0ffeen, EMPTY, MISSING, r.pick(CONTRACTS), SENDER])
  const world: ProgramWorld = { fork, others: [...ADDRESSES, coinbase], huge }
  const block: FuzzBlock = {
    coinbase,
    number: BigInt(1 + r.int(1000)),
    timestamp: BigInt(1_700_000_000 + r.int(1000)),
    gasLimit: huge ? 1n << 62n : 30_000_000n,
    difficulty: fork >= Fork.paris ? 0n : BigInt(0x20000 + r.int(1000)),
    prevRandao: fork >= Fork.paris ? r.word() : 0n,
    baseFee: fork >= Fork.london ? BigInt(r.int(20)) : 0n,
  }
  const accounts: FuzzAccount[] = [
    {
      address: SENDER,
      nonce: BigInt(r.pick([0, 0, 1, 5])),
      balance: r.chance(0.98) ? 10n ** 24n : BigInt(r.int(10 ** 9)),
      program: undefined,
      code: new Uint8Array(),
      storage: new Map(),
    },
  ]
  for (const address of ADDRESSES.slice(1)) {
    const shape = r.int(4)
    if (shape === 0) continue // missing
    const delegated = fork >= Fork.prague && shape === 3
    accounts.push({
      address,
      nonce: BigInt(r.int(2)),
      balance: shape === 1 ? 0n : BigInt(r.int(10 ** 6)),
      program: undefined,
      code: delegated ? delegation(r.pick(CONTRACTS)) : new Uint8Array(),
      storage: new Map(),
    })
  }
  for (const address of CONTRACTS) {
    const storage = new Map<bigint, bigint>()
    for (let i = 0; i < 4; i++) if (r.chance(0.4)) storage.set(BigInt(i), r.pick([1n, 2n, r.value() || 1n]))
    accounts.push({
      address,
      nonce: BigInt(r.int(2)),
      balance: r.pick([0n, 1000n, 10n ** 18n]),
      program: program(r, world, 0, 3 + r.int(12)),
      code: new Uint8Array(),
      storage,
    })
  }
  accounts.push({ address: EMPTY, nonce: 0n, balance: 0n, program: undefined, code: new Uint8Array(), storage: new Map() })

  const txs: FuzzTx[] = []
  const count = 1 + r.int(3)
  for (let i = 0; i < count; i++) txs.push(transaction(r, world, accounts[0]!.nonce + BigInt(i), block, huge && i === 0))
  return { seed, fork, block, accounts, txs }
}

function transaction(r: Random, w: ProgramWorld, nonce: bigint, block: FuzzBlock, huge: boolean): FuzzTx {
  const fork = w.fork
  const types: FuzzTx['type'][] = [0]
  if (fork >= Fork.berlin) types.push(1)
  if (fork >= Fork.london) types.push(2, 2)
  if (fork >= Fork.prague) types.push(4, 4)
  const type = r.pick(types)
  const creates = type !== 4 && r.chance(0.15)
  const to = creates ? undefined : r.chance(0.8) ? r.pick(CONTRACTS) : r.pick([1n, 4n, 9n, EMPTY, MISSING, ...ADDRESSES])
  const data = creates ? initCode(r, w, 0) : r.bytes(r.pick([0, 0, 4, 36, r.int(100)]))
  const gasLimit = huge
    ? (1n << 60n) + BigInt(r.int(1000))
    : BigInt((r.chance(0.1) ? r.pick([21000, 25000, 60000]) : r.pick([100_000, 300_000, 300_000, 1_000_000, 3_000_000])) + r.int(1000))
  const fee = block.baseFee + BigInt(r.int(10))
  const authorizations: FuzzAuthorization[] = []
  if (type === 4) {
    const n = 1 + r.int(3)
    for (let i = 0; i < n; i++)
      authorizations.push({
        key: r.int(KEYS.length),
        chainId: r.pick([CHAIN_ID, CHAIN_ID, 0n, 7n]),
        address: r.pick([...CONTRACTS, 0n, 1n, EMPTY]),
        nonce: BigInt(r.int(3)),
      })
  }
  const accessList =
    type === 1 || (type >= 2 && r.chance(0.5))
      ? Array.from({ length: r.int(3) }, () => ({
          address: r.pick([...CONTRACTS, EMPTY, MISSING, 1n]),
          storageKeys: Array.from({ length: r.int(3) }, () => BigInt(r.int(4))),
        }))
      : []
  return {
    type,
    nonce: r.chance(0.98) ? nonce : nonce + 1n,
    to,
    value: r.chance(0.02) ? 10n ** 30n : r.pick([0n, 0n, 1n, 10n ** 15n]),
    gasLimit,
    maxFee: fee,
    tip: BigInt(r.int(3)),
    data,
    accessList,
    authorizations,
  }
}

/** Smaller cases than `c` (a transaction or a contract's action fewer), for shrinking a disagreement. */
export function* smaller(c: FuzzCase): Generator<FuzzCase> {
  if (c.txs.length > 1) for (let i = 0; i < c.txs.length; i++) yield { ...c, txs: c.txs.filter((_, j) => j !== i) }
  for (let i = 0; i < c.accounts.length; i++) {
    const actions = c.accounts[i]!.program
    if (actions === undefined) continue
    for (let k = actions.length - 1; k >= 0; k--) {
      const accounts = c.accounts.slice()
      accounts[i] = { ...c.accounts[i]!, program: actions.filter((_, j) => j !== k) }
      yield { ...c, accounts }
    }
  }
}
