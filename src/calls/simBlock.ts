import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { blobBaseFee } from '../chain/blobFee.js'
import { Fork } from '../chain/evmFork.js'
import type { ChainSpec } from '../chain/spec.js'
import { logJson } from '../codecs/receipt.js'
import { keccak256 } from '../crypto/keccak.js'
import type { BlockEnv } from '../evm/env.js'
import { Status } from '../evm/frame.js'
import { Evm } from '../evm/interpreter.js'
import type { Log, WorldState } from '../evm/state.js'
import { addressToBytes, bytesToWord, wordToBytes } from '../evm/words.js'
import { requestsHash } from '../exec/requests.js'
import { blockSize } from '../store/blockCodec.js'
import { HeaderView } from '../store/headerView.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { bytesToHex } from '../util/hex.js'
import { evmForkAt } from '../vm/blockContext.js'
import { applyWithdrawals, blockRequests, InvalidRequestsError } from '../vm/blockEnd.js'
import { applyBlockStart } from '../vm/blockStart.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { EMPTY_UNCLE_HASH, encodeHeader, type HeaderFields } from '../codecs/headerCodec.js'
import { nextBaseFee, nextExcessBlobGas } from '../vm/headerFees.js'
import { encodeReceipt, logsBloom } from '../vm/receiptCodec.js'
import { stateRootAfter } from '../vm/stateRoot.js'
import type { StoredStateSource } from '../vm/stateSources.js'
import { movedPrecompiles } from './callRules.js'
import { OverrideError, SimulationError } from './errors.js'
import { applyStateOverrides } from './overrides.js'
import { type GasBudget, runSimCall, type SimCallRun } from './simCall.js'
import type { PlannedBlock } from './simChain.js'
import { simBlockJsonPrefix } from './simBlockJson.js'
import type { SimBlockResult, SimCallResult, SimWithdrawal } from './simulateInput.js'
import { bodyItem, simTransactionJson } from './simTransaction.js'
import { SimLogTracer } from './transferLogs.js'
import { GAS_PER_BLOB } from '../chain/blobFee.js'

// One simulated block built as a real one on the one before, as geth's simulator builds it (processBlock, makeHeaders):
// the header's fields from the overrides and the parent, the state overrides and precompile moves applied, the
// start-of-block system calls, the calls, EIP-7685's requests, the withdrawals (and a pre-merge block's reward), then
// the receipts, the roots, the header and its hash.

/** What the blocks of one simulation share. */
export interface Simulation {
  config: EvmConfig
  /** The simulation's state: every block's changes on the base block's. */
  state: WorldState
  source: StoredStateSource
  baseRoot: Uint8Array
  baseNumber: bigint
  /** The simulated blocks' hashes by number, for BLOCKHASH. */
  hashes: Map<bigint, Uint8Array>
  budget: GasBudget
  validation: boolean
  traceTransfers: boolean
  fullTransactions: boolean
  /** performance.now() at which the EVM stops (0: never). */
  deadline: number
}

/** What a block's child takes from its header. */
export interface SimParent {
  hash: Uint8Array
  number: bigint
  timestamp: bigint
  gasLimit: bigint
  gasUsed: bigint
  /** Undefined before London. */
  baseFee: bigint | undefined
  /** Undefined before Cancun. */
  excessBlobGas: bigint | undefined
  blobGasUsed: bigint | undefined
  difficulty: bigint
  coinbase: Uint8Array
}

const ZERO32 = new Uint8Array(32)
const ZERO_NONCE = new Uint8Array(8)
const NO_BYTES = new Uint8Array()
/** What ethash pays a pre-merge block's coinbase: 5 ether, 3 from Byzantium (EIP-649), 2 from Constantinople (EIP-1234). */
function blockReward(fork: Fork): bigint {
  return fork >= Fork.constantinople ? 2_000_000_000_000_000_000n : fork >= Fork.byzantium ? 3_000_000_000_000_000_000n : 5_000_000_000_000_000_000n
}

export function simulateBlock(sim: Simulation, planned: PlannedBlock, parent: SimParent): { result: SimBlockResult; parent: SimParent } {
  const { config, state } = sim
  const spec = config.spec
  const { number, time, block } = planned
  const o = block.blockOverrides ?? {}
  const fork = evmForkAt(spec, number, time)
  const cancun = fork >= Fork.cancun
  const blobs = spec.blobParamsAt(time)
  const excessBlobGas = cancun
    ? blobs === undefined || parent.excessBlobGas === undefined
      ? 0n
      : nextExcessBlobGas(parent, blobs, fork >= Fork.osaka)
    : undefined
  const withdrawals = fork >= Fork.shanghai ? (o.withdrawals ?? []) : undefined
  const header: HeaderFields = {
    parentHash: parent.hash,
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: o.feeRecipient ?? parent.coinbase,
    stateRoot: ZERO32,
    transactionsRoot: ZERO32,
    receiptsRoot: ZERO32,
    logsBloom: new Uint8Array(256),
    difficulty: postMerge(spec, number, time) ? 0n : parent.difficulty,
    number,
    gasLimit: o.gasLimit ?? parent.gasLimit,
    gasUsed: 0n,
    timestamp: time,
    extraData: NO_BYTES,
    mixHash: o.prevRandao ?? ZERO32,
    nonce: ZERO_NONCE,
    // Without validation the base fee is 0 unless given: a call's fee cap can never be short of it.
    ...(fork >= Fork.london ? { baseFee: o.baseFeePerGas ?? (sim.validation ? nextBaseFee(parent) : 0n) } : {}),
    ...(withdrawals === undefined ? {} : { withdrawalsRoot: ZERO32 }),
    ...(excessBlobGas === undefined ? {} : { blobGasUsed: 0n, excessBlobGas, parentBeaconBlockRoot: ZERO32 }),
    ...(fork >= Fork.prague ? { requestsHash: ZERO32 } : {}),
  }
  const env: BlockEnv = {
    coinbase: bytesToWord(header.coinbase),
    number,
    timestamp: time,
    gasLimit: header.gasLimit,
    prevRandao: bytesToWord(header.mixHash),
    difficulty: header.difficulty,
    baseFee: header.baseFee ?? 0n,
    blobBaseFee:
      o.blobBaseFee ?? (excessBlobGas === undefined || blobs === undefined ? 0n : blobBaseFee(excessBlobGas, BigInt(blobs.baseFeeUpdateFraction))),
    chainId: spec.chainId,
    blockHash: (n) => {
      const hash = n > sim.baseNumber ? sim.hashes.get(n) : config.ancestors.hashOf(n)
      return hash === undefined ? 0n : bytesToWord(hash)
    },
  }

  // State overrides, then the system calls (geth's order), with the precompiles the overrides leave.
  let moves: ReturnType<typeof movedPrecompiles>
  try {
    moves = movedPrecompiles(block.stateOverrides, fork)
  } catch (e) {
    throw e instanceof OverrideError ? SimulationError.of(e) : e
  }
  applyStateOverrides(state, block.stateOverrides)
  const evm = new Evm({ fork, block: env, state, deadline: sim.deadline, precompileMoves: moves, scratch: config.scratch })
  applyBlockStart(evm, HeaderView.of(encodeHeader(header)))

  const tracer = new SimLogTracer(sim.traceTransfers)
  const ctx = {
    evm,
    limits: { maxBlobsPerBlock: blobs?.max ?? 0 },
    baseFee: header.baseFee,
    chainId: spec.chainId,
    validation: sim.validation,
    tracer,
  }
  const runs: SimCallRun[] = []
  const receipts: Uint8Array[] = []
  const blockLogs: Log[] = []
  const bloom = new Uint8Array(256)
  let gasUsed = 0n
  let blobGasUsed = 0n
  for (const call of block.calls) {
    const run = runSimCall(ctx, call, header.gasLimit - gasUsed, sim.budget)
    gasUsed += run.gasUsed
    // The receipt's blob gas is a blob transaction's (one with a gas price is a legacy transaction, blobs or not).
    if (run.tx.type === 3) blobGasUsed += GAS_PER_BLOB * BigInt(run.tx.blobVersionedHashes.length)
    receipts.push(encodeReceipt(run.tx.type, run.status === Status.success, gasUsed, logsBloom(run.logs), run.logs))
    logsBloom(run.logs, bloom)
    blockLogs.push(...run.logs)
    runs.push(run)
  }

  // The block's end, in geth's order: EIP-7685's requests (PostExecution), then the withdrawals (Finalize).
  if (header.requestsHash !== undefined) {
    const deposit = spec.depositContract === undefined ? undefined : bytesToWord(spec.depositContract)
    try {
      header.requestsHash = requestsHash(blockRequests(evm, blockLogs, deposit))
    } catch (e) {
      throw e instanceof InvalidRequestsError ? new SimulationError(e.message, 'rejected') : e
    }
  }
  if (withdrawals !== undefined)
    applyWithdrawals(
      evm,
      withdrawals.map((w) => ({ address: bytesToWord(w.address), amount: w.amount })),
    )
  if (header.difficulty !== 0n) {
    state.addBalance(state.get(env.coinbase), blockReward(fork))
    state.endTransaction()
  }

  header.stateRoot = stateRootAfter(
    sim.baseRoot,
    state.changes(),
    (a) => sim.source.storageRoot(a),
    (h) => config.store.getTrieNode(h),
  )
  header.transactionsRoot = orderedTrieRoot(runs.map((r) => r.txBytes))
  header.receiptsRoot = orderedTrieRoot(receipts)
  header.logsBloom = bloom
  header.gasUsed = gasUsed
  if (withdrawals !== undefined) header.withdrawalsRoot = orderedTrieRoot(withdrawals.map(withdrawalRlp))
  if (header.blobGasUsed !== undefined) header.blobGasUsed = blobGasUsed
  const headerRlp = encodeHeader(header)
  const hash = keccak256(headerRlp)
  sim.hashes.set(number, hash)

  const body = RLP.encode([runs.map((r) => bodyItem(r.tx)), [], ...(withdrawals === undefined ? [] : [withdrawals.map(withdrawalFields)])])
  const place = { blockHash: hash, blockNumber: number, blockTimestamp: time }
  const result: SimBlockResult = {
    blockJson: simBlockJsonPrefix(header, hash, blockSize(headerRlp, body), withdrawals),
    transactions: runs.map((r, index) =>
      sim.fullTransactions
        ? simTransactionJson(r.tx, { ...place, hash: r.hash, from: r.from, index, baseFee: header.baseFee })
        : `"${bytesToHex(r.hash)}"`,
    ),
    calls: runs.map((r, index) => callResult(r, { ...place, txHash: r.hash, index })),
  }
  const next: SimParent = {
    hash,
    number,
    timestamp: time,
    gasLimit: header.gasLimit,
    gasUsed,
    baseFee: header.baseFee,
    excessBlobGas: header.excessBlobGas,
    blobGasUsed: header.blobGasUsed,
    difficulty: header.difficulty,
    coinbase: header.coinbase,
  }
  return { result, parent: next }
}

/** geth's IsPostMerge: merged at genesis, or past the merge block, or Shanghai (which only a merged chain reaches). */
function postMerge(spec: ChainSpec, number: bigint, time: bigint): boolean {
  return spec.terminalTotalDifficulty === 0n || spec.isActive('paris', number, time) || spec.isActive('shanghai', number, time)
}

function withdrawalFields(w: SimWithdrawal): Uint8Array[] {
  const q = bigIntToUnpaddedBytes
  return [q(w.index), q(w.validatorIndex), w.address, q(w.amount)]
}

function withdrawalRlp(w: SimWithdrawal): Uint8Array {
  return RLP.encode(withdrawalFields(w))
}

function callResult(
  r: SimCallRun,
  place: { blockHash: Uint8Array; blockNumber: bigint; blockTimestamp: bigint; txHash: Uint8Array; index: number },
): SimCallResult {
  const ok = r.status === Status.success
  return {
    returnData: ok ? r.output : NO_BYTES,
    logs: r.replyLogs.map(({ log, index }) => logJson([addressToBytes(log.address), log.topics.map(wordToBytes), log.data], place, index)),
    gasUsed: r.gasUsed,
    maxUsedGas: r.maxUsedGas,
    status: ok ? 1 : 0,
    ...(r.status === Status.revert ? { revert: r.output } : {}),
    ...(r.error === undefined ? {} : { error: r.error }),
  }
}
