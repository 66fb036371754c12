import { blobBaseFee } from '../chain/blobFee.js'
import { type Fork, evmFork } from '../chain/evmFork.js'
import type { ChainSpec } from '../chain/spec.js'
import type { BlockEnv } from '../evm/env.js'
import type { BlockLimits } from '../evm/transaction.js'
import { bytesToWord } from '../evm/words.js'
import type { HeaderView } from '../store/headerView.js'
import type { AncestorView } from './ancestors.js'

// The block a transaction runs in, as the EVM reads it: the fork its number and time select, the environment its
// opcodes read (coinbase, number, time, gas limit, PREVRANDAO or difficulty, base fee, blob base fee, chain id,
// BLOCKHASH), and the blob limit a transaction is held to.

export interface BlockContext {
  fork: Fork
  env: BlockEnv
  limits: BlockLimits
}

/** A call's block overrides (eth_call, eth_estimateGas, eth_simulateV1): each replaces the header's field. */
export interface BlockEnvOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  coinbase?: bigint
  prevRandao?: bigint
  baseFee?: bigint
  blobBaseFee?: bigint
}

/** The fork Sponge's EVM runs a block of this number and time in. */
export function evmForkAt(spec: ChainSpec, number: bigint, timestamp: bigint): Fork {
  return evmFork(spec.forkAt(number, timestamp))
}

/**
 * The context of the block `header` (whose hash is `hash`), with any overrides. BLOCKHASH answers from the header's
 * own ancestors, re-anchored on it.
 */
export function blockContextOf(
  spec: ChainSpec,
  header: HeaderView,
  hash: Uint8Array,
  ancestors: AncestorView,
  o: BlockEnvOverrides = {},
): BlockContext {
  const number = o.number ?? header.number
  const timestamp = o.time ?? header.timestamp
  const fork = evmForkAt(spec, number, timestamp)
  ancestors.advance(hash, header.number, header.parentHash)
  const blobs = spec.blobParamsAt(timestamp)
  const excess = header.excessBlobGas
  const env: BlockEnv = {
    coinbase: o.coinbase ?? bytesToWord(header.coinbase),
    number,
    timestamp,
    gasLimit: o.gasLimit ?? header.gasLimit,
    prevRandao: o.prevRandao ?? bytesToWord(header.mixHash),
    difficulty: header.difficulty,
    baseFee: o.baseFee ?? header.baseFee,
    blobBaseFee: o.blobBaseFee ?? (excess === undefined || blobs === undefined ? 0n : blobBaseFee(excess, BigInt(blobs.baseFeeUpdateFraction))),
    chainId: spec.chainId,
    blockHash: (n) => {
      const h = ancestors.hashOf(n)
      return h === undefined ? 0n : bytesToWord(h)
    },
  }
  return { fork, env, limits: { maxBlobsPerBlock: blobs?.max ?? 0 } }
}
