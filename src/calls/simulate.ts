import { type Block, createBlock } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { type BlockBuilder, type RunTxResult, buildBlock, encodeReceipt } from '@ethereumjs/vm'
import { RLP } from '@ethereumjs/rlp'
import type { ChainSpec } from '../chain/spec.js'
import { type LogPlace, logJson } from '../codecs/receipt.js'
import { blockJsonPrefix } from '../codecs/block.js'
import { transactionJson } from '../codecs/transaction.js'
import { keccak256 } from '../crypto/keccak.js'
import { blockSize, readBlock } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex } from '../util/hex.js'
import { appendTransaction } from '../payload/builder.js'
import { asEoa } from './senderCode.js'
import { movePrecompiles } from './ethereumjsOverrides.js'
import { applyStateOverrides } from './ethereumjsOverrides.js'
import { callTransaction } from './callTransaction.js'
import type { CallInput } from './callInput.js'
import type { BlockOverrides } from './callInput.js'
import type { CallRequest } from './callInput.js'
import type { BlockExecutor } from '../exec/executor.js'
import { maxFeeOf } from '../exec/fees.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { type NumberedLog, TransferLogTracer } from './transferLogs.js'
import { txRejectionOf } from '../exec/ethereumjsErrors.js'
import { SimulationError } from './errors.js'
import { blockBuilderInternals } from '../state/ethereumjsInternals.js'

// eth_simulateV1: blocks of calls on a block's state, each block built as a real one (system calls, receipts,
// roots, hash) on the previous, with geth's defaults for everything a call or block leaves out. Nothing is stored.

export interface SimCall extends CallRequest {
  nonce?: bigint
}

export interface SimBlock {
  blockOverrides?: BlockOverrides & {
    withdrawals?: { index: bigint; validatorIndex: bigint; address: Uint8Array; amount: bigint }[]
  }
  stateOverrides?: CallInput['stateOverrides']
  calls: SimCall[]
}

export interface SimulateInput {
  blockHash: Uint8Array
  blocks: SimBlock[]
  validation: boolean
  /** Ether transfers reported as logs (transferLogs.ts). */
  traceTransfers: boolean
  fullTransactions: boolean
  gasCap: bigint
}

export interface SimCallResult {
  returnData: Uint8Array
  /** Each log's reply JSON. */
  logs: string[]
  gasUsed: bigint
  maxUsedGas: bigint
  status: 0 | 1
  /** Set when the call reverted. */
  revert?: Uint8Array
  /** EthereumJS's reason for another exceptional halt. */
  halt?: string
}

export interface SimBlockResult {
  /** The block's JSON up to its closing brace, without `transactions`. */
  blockJson: string
  /** Transaction hashes as JSON strings, or full transaction objects. */
  transactions: string[]
  calls: SimCallResult[]
}

/**
 * The simulated blocks; null when the base block is not stored. Why a simulation stops is thrown as a SimulationError
 * (calls/errors.ts), whose kind src/rpc/errorMap.ts gives the spec's code.
 */
export type SimulateOutcome = { blocks: SimBlockResult[] } | null

/** geth's limits and defaults. */
const MAX_BLOCKS = 256n
const TIMESTAMP_INCREMENT = 12n
const ZERO32 = new Uint8Array(32)
const TX_GAS_CAP = 16_777_216n
const ZERO_ADDRESS = new Uint8Array(20)

/** A block to build: its number and time settled (gaps filled with empty blocks, as geth does). */
interface PlannedBlock {
  number: bigint
  time: bigint
  block: SimBlock
}

function plan(base: Block, blocks: SimBlock[]): PlannedBlock[] {
  const out: PlannedBlock[] = []
  let prevNumber = base.header.number
  let prevTime = base.header.timestamp
  for (const block of blocks) {
    const number = block.blockOverrides?.number ?? prevNumber + 1n
    if (number <= prevNumber) throw new SimulationError(`block numbers must be in order: ${number} <= ${prevNumber}`, 'blockNumberOrder')
    if (number - base.header.number > MAX_BLOCKS) throw new SimulationError('too many blocks', 'tooManyBlocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ number: n, time: prevTime, block: { calls: [] } })
    }
    const time = block.blockOverrides?.time ?? prevTime + TIMESTAMP_INCREMENT
    if (time <= prevTime) throw new SimulationError(`block timestamps must be in order: ${time} <= ${prevTime}`, 'timestampOrder')
    out.push({ number, time, block })
    prevNumber = number
    prevTime = time
  }
  return out
}

export async function simulate(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: SimulateInput): Promise<SimulateOutcome> {
  const base = readBlock(spec, store, input.blockHash)
  if (base === undefined) return null
  const vm = executor.vm
  const sm = executor.state
  executor.trieOverlay.pending.clear()
  sm.clearCaches()
  await sm.setStateRoot(base.header.stateRoot, true)
  executor.ancestors.advance(base.hash(), base.header.number, base.header.parentHash)
  let gasPool = input.gasCap
  try {
    const planned = plan(base, input.blocks)
    const results: SimBlockResult[] = []
    let parent = base
    for (const { number, time, block } of planned) {
      try {
        vm.common.setHardforkBy({ blockNumber: number, timestamp: time })
      } catch (e) {
        // A number and time no fork schedule puts together (a pre-merge number with a far-future time).
        throw new SimulationError(`invalid block number ${number} and time ${time}: ${(e as Error).message}`, 'invalidBlockOverrides')
      }
      const common = vm.common
      await applyStateOverrides(sm, block.stateOverrides)
      let restorePrecompiles: () => void
      try {
        restorePrecompiles = movePrecompiles(vm, block.stateOverrides)
      } catch (e) {
        throw refusal(e)
      }
      try {
        // Written through to the trie now: EthereumJS's cache drops writes made outside a checkpoint once the
        // builder's checkpoint commits, unless the account is touched again (measured: an override of an untouched
        // account left the state root unchanged).
        await sm.flush()
        const o = block.blockOverrides ?? {}
        const baseFee = common.isActivatedEIP(1559) ? (o.baseFeePerGas ?? (input.validation ? parent.header.calcNextBaseFee() : 0n)) : undefined
        const headerData = {
          number,
          timestamp: time,
          gasLimit: o.gasLimit ?? parent.header.gasLimit,
          coinbase: new Address(o.feeRecipient ?? parent.header.coinbase.bytes),
          difficulty: parent.header.difficulty,
          mixHash: o.prevRandao ?? ZERO32,
          ...(baseFee === undefined ? {} : { baseFeePerGas: baseFee }),
          ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
        }
        const withdrawals = common.isActivatedEIP(4895) ? (o.withdrawals ?? []) : undefined
        const builder = await buildBlock(vm, {
          parentBlock: parent,
          headerData,
          ...(withdrawals === undefined ? {} : { withdrawals }),
          blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, common, skipConsensusFormatValidation: true },
        })
        const contextWith = (fee: bigint | undefined) =>
          createBlock(
            {
              header: {
                ...headerData,
                ...(fee === undefined ? {} : { baseFeePerGas: fee }),
                parentHash: parent.hash(),
                ...(common.isActivatedEIP(4844) ? { excessBlobGas: parent.header.calcNextExcessBlobGas(common) } : {}),
              },
            },
            { common, skipConsensusFormatValidation: true },
          )
        const context = contextWith(undefined)
        /** geth's NoBaseFee without validation: a call paying less than the base fee runs as if the base fee were 0. */
        let freeContext: Block | undefined
        const txs: { tx: TypedTransaction; from: Address; hash: Uint8Array }[] = []
        const calls: Omit<SimCallResult, 'logs'>[] = []
        const callLogs: NumberedLog[][] = []
        let logCount = 0
        let gasUsed = 0n
        const transfers = input.traceTransfers ? new TransferLogTracer(vm) : undefined
        try {
          for (const call of block.calls) {
            const from = new Address(call.from ?? ZERO_ADDRESS)
            const stateNonce = (await sm.getAccount(from))?.nonce ?? 0n
            const nonce = call.nonce ?? stateNonce
            if (input.validation && nonce < stateNonce) {
              throw new SimulationError(`nonce too low: address ${from.toString()}, tx: ${nonce} state: ${stateNonce}`, 'nonceTooLow')
            }
            if (input.validation && nonce > stateNonce) {
              throw new SimulationError(`nonce too high: address ${from.toString()}, tx: ${nonce} state: ${stateNonce}`, 'nonceTooHigh')
            }
            const remaining = context.header.gasLimit - gasUsed
            let gas = call.gas ?? remaining
            if (gas > gasPool) gas = gasPool
            if (gasUsed + gas > context.header.gasLimit) {
              throw new SimulationError(`block gas limit reached: ${gasUsed} >= ${context.header.gasLimit}`, 'blockGasLimitReached')
            }
            // geth's defaults: no tip unless one is given. The transaction is made within EIP-7825's cap (EthereumJS
            // refuses more at construction), then given its gas: geth runs simulated calls with all of it, whatever
            // the fork.
            const fees = call.gasPrice === undefined && call.maxPriorityFeePerGas === undefined ? { maxPriorityFeePerGas: 0n } : {}
            let tx: TypedTransaction
            try {
              tx = callTransaction({ ...call, ...fees }, common, gas > TX_GAS_CAP ? TX_GAS_CAP : gas, undefined, nonce)
            } catch (e) {
              // EthereumJS refuses an oversized init code (EIP-3860) when the transaction is made.
              throw refusal(e)
            }
            Object.defineProperty(tx, 'gasLimit', { value: gas })
            const hash = keccak256(tx.serialize())
            Object.defineProperty(tx, 'getSenderAddress', { value: () => from })
            Object.defineProperty(tx, 'hash', { value: () => hash })
            await precheck(tx, from, sm, context, input.validation)
            let result: RunTxResult
            try {
              const runIn = !input.validation && baseFee !== undefined && maxFeeOf(tx) < baseFee ? (freeContext ??= contextWith(0n)) : context
              result = await asEoa(sm, from, () => appendTransaction(builder, runIn, tx, true, { skipNonce: true }))
            } catch (e) {
              throw refusal(e)
            }
            gasUsed += result.totalGasSpent
            gasPool -= result.totalGasSpent
            txs.push({ tx, from, hash })
            const exec = result.execResult
            const failed = exec.exceptionError !== undefined
            const reverted = exec.exceptionError?.error === 'revert'
            calls.push({
              returnData: exec.returnValue,
              gasUsed: result.totalGasSpent,
              maxUsedGas: result.totalGasSpent + result.gasRefund,
              status: failed ? 0 : 1,
              ...(reverted ? { revert: exec.returnValue } : {}),
              ...(failed && !reverted ? { halt: exec.exceptionError!.error } : {}),
            })
            callLogs.push(transfers?.take() ?? result.receipt.logs.map((log) => ({ log, index: logCount++ })))
          }
          transfers?.detach()
          const built = await buildWithoutTransactions(
            builder,
            txs.map((t) => t.tx),
          )
          const blockHash = built.hash()
          const withLogs = calls.map((c, i) => {
            const place: LogPlace = { blockHash, blockNumber: number, blockTimestamp: time, txHash: txs[i]!.hash, index: i }
            return { ...c, logs: callLogs[i]!.map((l) => logJson(l.log, place, l.index)) }
          })
          const raw = built.raw()
          raw[1] = txs.map(({ tx }) => (tx.type === 0 ? tx.raw() : tx.serialize())) as never
          const size = blockSize(built.header.serialize(), RLP.encode(raw.slice(1) as never))
          const transactions = txs.map(({ tx, from, hash }, index) =>
            input.fullTransactions
              ? transactionJson(tx, from, { blockHash, blockNumber: number, blockTimestamp: time, index, baseFee: built.header.baseFeePerGas })
              : `"${bytesToHex(hash)}"`,
          )
          results.push({ blockJson: blockJsonPrefix(built, size), transactions, calls: withLogs })
          executor.ancestors.advance(blockHash, number, parent.hash())
          parent = built
        } catch (e) {
          await builder.revert()
          throw e
        } finally {
          transfers?.detach()
        }
      } finally {
        restorePrecompiles()
      }
    }
    return { blocks: results }
  } finally {
    executor.trieOverlay.pending.clear()
    sm.clearCaches()
  }
}

/**
 * BlockBuilder.build() for transactions whose gas EthereumJS would refuse to construct (over EIP-7825's cap): it
 * re-creates every transaction from its fields when making the block. The block is made without them, the
 * transactions and receipts roots given from their encodings; the header (and so the hash) is the same.
 */
async function buildWithoutTransactions(builder: BlockBuilder, txs: TypedTransaction[]): Promise<Block> {
  const txRoot = orderedTrieRoot(txs.map((tx) => tx.serialize()))
  const b = blockBuilderInternals(builder)
  const receiptRoot = orderedTrieRoot(b.transactionResults.map((r, i) => encodeReceipt(r.receipt, txs[i]!.type)))
  b.transactionsTrie = () => Promise.resolve(txRoot)
  b.receiptTrie = () => Promise.resolve(receiptRoot)
  b.transactions = []
  return (await builder.build()).block
}

/** geth's checks before a simulated call runs, with its messages (errorMap gives the kinds the spec's codes). */
async function precheck(tx: TypedTransaction, from: Address, sm: BlockExecutor['state'], context: Block, validation: boolean): Promise<void> {
  const intrinsic = tx.getIntrinsicGas()
  if (tx.gasLimit < intrinsic) throw new SimulationError(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`, 'intrinsicGasTooLow')
  const baseFee = context.header.baseFeePerGas ?? 0n
  const feeCap = maxFeeOf(tx)
  if (validation && feeCap < baseFee) {
    throw new SimulationError(
      `max fee per gas less than block base fee: address ${from.toString()}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
      'feeCapTooLow',
    )
  }
  const balance = (await sm.getAccount(from))?.balance ?? 0n
  const want = tx.gasLimit * feeCap + tx.value
  if (balance < want) {
    throw new SimulationError(
      `insufficient funds for gas * price + value: address ${from.toString()} have ${balance} want ${want}`,
      'insufficientFunds',
    )
  }
}

/** A call's refusal (ours or EthereumJS's, ethereumjsErrors.ts) as the simulation's error; the node's failures as they are. */
function refusal(e: unknown): unknown {
  const rejection = txRejectionOf(e)
  return rejection === undefined ? e : SimulationError.of(rejection)
}
