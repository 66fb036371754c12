import { Fork } from '../chain/evmFork.js'
import { Evm } from '../evm/interpreter.js'
import { WorldState } from '../evm/state.js'
import type { EvmTracer } from '../evm/tracer.js'
import { applyTransaction, type EvmTransaction, type TxOutcome } from '../evm/transaction.js'
import { bytesToWord } from '../evm/words.js'
import { Status } from '../evm/frame.js'
import type { BlockContext } from '../vm/blockContext.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { accessListWords, authorizationWords } from '../vm/evmTransaction.js'
import { TxRejectedError } from '../exec/errors.js'
import type { CallInput, CallOutcome, CallRequest } from './callInput.js'
import { checkFieldsActive, movedPrecompiles } from './callRules.js'
import { applyStateOverrides } from './overrides.js'

// eth_call, eth_estimateGas, eth_createAccessList and debug_traceCall on Sponge's EVM: the request made a message
// as geth's ToMessage makes it, run on the named block's state with the overrides, and thrown away. Synchronous, so
// a call runs wherever it is cheapest (the serving thread under a budget, or a worker): see docs/design.md.

const CALL = { call: true } as const

/**
 * A call ready to run, as many times as an estimate needs: its block context, its state with the overrides applied
 * (reads stay cached from run to run; each run's own changes are dropped after it) and its message.
 */
export class PreparedCall {
  constructor(
    readonly ctx: BlockContext,
    readonly evm: Evm,
    readonly tx: EvmTransaction,
  ) {}

  get state(): WorldState {
    return this.evm.state
  }

  /** Runs the message with `gasLimit` gas (and a tracer); its changes are undone after. Throws TxRejectedError. */
  run(gasLimit: bigint, tracer?: EvmTracer): CallOutcome {
    const o = this.runRaw(gasLimit, tracer)
    return outcomeOf(o)
  }

  /** As `run`, with the EVM's own outcome (for tracers' results). */
  runRaw(gasLimit: bigint, tracer?: EvmTracer): TxOutcome {
    this.tx.gasLimit = gasLimit
    this.evm.tracer = tracer
    try {
      return applyTransaction(this.evm, this.tx, this.ctx.limits, CALL)
    } finally {
      this.evm.tracer = undefined
      this.state.abortTransaction()
    }
  }
}

export function outcomeOf(o: TxOutcome): CallOutcome {
  const facts = { gasUsed: BigInt(o.gasUsed), gasRefund: BigInt(o.refund) }
  if (o.status === Status.success) return { status: 'success', returnData: o.output, ...facts }
  if (o.status === Status.revert) return { status: 'revert', returnData: o.output, ...facts }
  return { status: 'halt', error: o.error ?? 'execution failed', ...facts }
}

/**
 * Prepares a call at its block; null when the store does not have the block. `deadline` (performance.now(), 0 for
 * none) stops the EVM with EvmAbortedError.
 */
export function prepareCall(config: EvmConfig, input: CallInput, deadline = 0): PreparedCall | null {
  const header = config.header(input.blockHash)
  if (header === undefined) return null
  const c = input.call
  const o = input.blockOverrides
  const fees = feesOf(c, header.hasBaseFee ? (o?.baseFeePerGas ?? header.baseFee) : undefined)
  const ctx = config.blockContext(header, input.blockHash, {
    ...(o?.number === undefined ? {} : { number: o.number }),
    ...(o?.time === undefined ? {} : { time: o.time }),
    ...(o?.gasLimit === undefined ? {} : { gasLimit: o.gasLimit }),
    ...(o?.feeRecipient === undefined ? {} : { coinbase: bytesToWord(o.feeRecipient) }),
    ...(o?.prevRandao === undefined ? {} : { prevRandao: bytesToWord(o.prevRandao) }),
    // geth lowers the block's base fee to 0 for a message that pays nothing, and the blob base fee likewise.
    ...(fees.gasPrice === 0n ? { baseFee: 0n } : o?.baseFeePerGas === undefined ? {} : { baseFee: o.baseFeePerGas }),
    ...(c.maxFeePerBlobGas === 0n || (c.maxFeePerBlobGas === undefined && c.blobVersionedHashes !== undefined) ? { blobBaseFee: 0n } : {}),
  })
  checkFieldsActive(c, ctx.fork)
  const state = new WorldState(config.stateAt(header.stateRoot))
  const moves = movedPrecompiles(input.stateOverrides, ctx.fork)
  applyStateOverrides(state, input.stateOverrides)
  const evm = new Evm({ fork: ctx.fork, block: ctx.env, state, deadline, precompileMoves: moves, scratch: config.scratch })
  return new PreparedCall(ctx, evm, messageOf(c, ctx.fork, fees))
}

/**
 * eth_call: the call run once with its gas; null when the block is not stored. A message refused before it runs is
 * answered in geth's words for eth_call ("err: … (supplied gas N)").
 */
export function runCall(config: EvmConfig, input: CallInput, deadline = 0): CallOutcome | null {
  const call = prepareCall(config, input, deadline)
  if (call === null) return null
  const gas = gasLimitOf(input)
  try {
    return call.run(gas)
  } catch (e) {
    if (e instanceof TxRejectedError) throw new TxRejectedError(`err: ${e.message} (supplied gas ${gas})`, e.kind)
    throw e
  }
}

/** The gas limit a call runs with: its own, else the cap; never above the cap (geth's CallDefaults). */
export function gasLimitOf(input: CallInput): bigint {
  const gas = input.call.gas ?? input.gasCap
  return gas > input.gasCap ? input.gasCap : gas
}

interface Fees {
  gasPrice: bigint
  feeCap: bigint
  tip: bigint
}

/**
 * The prices geth's ToMessage gives a call: a gas price is the fee cap and tip too; else the 1559 fields (0 when
 * absent) with the price they pay at the base fee, or 0 when both are 0.
 */
function feesOf(c: CallRequest, baseFee: bigint | undefined): Fees {
  if (baseFee === undefined || c.gasPrice !== undefined) {
    const price = c.gasPrice ?? 0n
    return { gasPrice: price, feeCap: price, tip: price }
  }
  const feeCap = c.maxFeePerGas ?? 0n
  const tip = c.maxPriorityFeePerGas ?? 0n
  if (feeCap === 0n && tip === 0n) return { gasPrice: 0n, feeCap, tip }
  const paid = tip + baseFee
  return { gasPrice: paid < feeCap ? paid : feeCap, feeCap, tip }
}

/** The message a call object describes, its type from the fields given (as geth's ToTransaction). */
function messageOf(c: CallRequest, fork: Fork, fees: Fees): EvmTransaction {
  const type =
    c.authorizationList !== undefined
      ? 4
      : c.blobVersionedHashes !== undefined
        ? 3
        : c.gasPrice === undefined && fork >= Fork.london
          ? 2
          : c.accessList !== undefined
            ? 1
            : 0
  return {
    type,
    sender: c.from === undefined ? 0n : bytesToWord(c.from),
    to: c.to === undefined ? undefined : bytesToWord(c.to),
    nonce: 0n,
    gasLimit: 0n,
    value: c.value ?? 0n,
    data: c.data ?? new Uint8Array(),
    gasPrice: fees.gasPrice,
    maxFeePerGas: fees.feeCap,
    maxPriorityFeePerGas: fees.tip,
    accessList: accessListWords(c.accessList ?? []),
    maxFeePerBlobGas: c.maxFeePerBlobGas ?? 0n,
    blobHashes: (c.blobVersionedHashes ?? []).map(bytesToWord),
    authorizations: authorizationWords(c.authorizationList ?? []),
  }
}
