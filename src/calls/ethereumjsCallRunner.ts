import { type Block, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { type VM, runTx } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import type { OverlayTrieDB } from '../trie/trieDb.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import type { AncestorView } from '../vm/ancestors.js'
import { TxRejectedError } from '../exec/errors.js'
import { createStoreVm } from '../exec/storeVm.js'
import { attachTracer } from './attachTracer.js'
import type { TraceOptions } from './tracer.js'
import { setBounded } from '../util/boundedMap.js'
import { CallReadCache } from './readCache.js'
import { type AccessListEntry, type CallInput, type CallOutcome, UnknownCallBlockError } from './callInput.js'
import { callTransaction } from './callTransaction.js'
import { txRejectionOf } from '../exec/ethereumjsErrors.js'
import { applyStateOverrides, movePrecompiles } from './ethereumjsOverrides.js'
import { asEoa } from './senderCode.js'

// eth_call, eth_estimateGas and eth_createAccessList: a transaction run on a block's state (with overrides) and
// thrown away, in a worker. The sender needs no signature; nonces are not checked; with no fee given the call is
// free (gas price 0, and the block's base fee 0 for it, as geth's NoBaseFee).

const ZERO_ADDRESS = new Uint8Array(20)
/** EIP-7825 (Osaka): no transaction may use more. */
const MAX_TX_GAS = 16_777_216n

/** One per worker thread: a VM over its own trie view, re-rooted for every call. */
export class EthereumjsCallRunner {
  private constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly trieDb: OverlayTrieDB,
    private readonly sm: MerkleStateManager,
    private readonly vm: VM,
    private readonly ancestors: AncestorView,
  ) {
    // Installs itself on the state manager: the reads calls make are kept from call to call.
    new CallReadCache(sm, () => this.currentRoot)
  }

  static async create(spec: ChainSpec, store: ChainStore): Promise<EthereumjsCallRunner> {
    const { trieDb, state, vm, ancestors } = await createStoreVm(spec, store)
    return new EthereumjsCallRunner(spec, store, trieDb, state, vm, ancestors)
  }

  /** The gas limit a call runs with: its own, else the cap; never above the cap or (from Osaka) EIP-7825's. */
  gasLimitOf(input: CallInput, block: Block): bigint {
    let gas = input.call.gas ?? input.gasCap
    if (gas > input.gasCap) gas = input.gasCap
    if (block.common.isActivatedEIP(7825) && gas > MAX_TX_GAS) gas = MAX_TX_GAS
    return gas
  }

  /** The root the state manager is at: calls at the same block keep its warm caches. */
  private currentRoot: Uint8Array | undefined
  /** The last call contexts without block overrides: consecutive calls at one block share theirs. */
  private readonly blocks = new Map<string, { block: Block; anchor: [Uint8Array, bigint, Uint8Array] }>()

  /** The block a call runs in: the named block's header with the overrides, and a zero base fee when it pays none. */
  async prepare(input: CallInput): Promise<Block> {
    const paysFee = input.call.gasPrice !== undefined || input.call.maxFeePerGas !== undefined
    const key = `${bytesToHex(input.blockHash)}:${paysFee}`
    const cached = input.blockOverrides === undefined ? this.blocks.get(key) : undefined
    if (cached !== undefined) {
      this.vm.common.setHardforkBy({ blockNumber: cached.block.header.number, timestamp: cached.block.header.timestamp })
      this.ancestors.advance(...cached.anchor)
      return cached.block
    }
    const header = readHeader(this.spec, this.store, input.blockHash)
    if (header === undefined) throw new UnknownCallBlockError('header not found')
    const o = input.blockOverrides ?? {}
    const number = o.number ?? header.number
    const timestamp = o.time ?? header.timestamp
    let common: Common
    try {
      common = this.spec.commonAt(number, timestamp)
    } catch (e) {
      // Overrides no fork schedule puts together (a pre-merge number with a far-future time).
      throw new TxRejectedError(`invalid block overrides: ${(e as Error).message}`, 'invalidBlockOverrides')
    }
    const baseFee = paysFee ? (o.baseFeePerGas ?? header.baseFeePerGas) : header.baseFeePerGas === undefined ? undefined : 0n
    const block = createBlock(
      {
        header: {
          ...header.toJSON(),
          number,
          timestamp,
          ...(o.gasLimit === undefined ? {} : { gasLimit: o.gasLimit }),
          ...(o.feeRecipient === undefined ? {} : { coinbase: o.feeRecipient }),
          ...(o.prevRandao === undefined ? {} : { mixHash: o.prevRandao }),
          ...(baseFee === undefined ? {} : { baseFeePerGas: baseFee }),
        },
      },
      { common, skipConsensusFormatValidation: true },
    )
    this.vm.common.setHardforkBy({ blockNumber: number, timestamp })
    const anchor: [Uint8Array, bigint, Uint8Array] = [header.hash(), header.number, header.parentHash]
    this.ancestors.advance(...anchor)
    if (input.blockOverrides === undefined) {
      setBounded(this.blocks, key, { block, anchor }, 8)
    }
    return block
  }

  /**
   * Runs `f` on the call's block state with its overrides, inside a checkpoint that is reverted after: nothing a call
   * does is kept or flushed, and the caches stay warm for the next call at the same block.
   */
  private async withState<T>(input: CallInput, block: Block, f: () => Promise<T>): Promise<T> {
    // Block overrides change the context, never the state root: it is the named block's.
    const root = block.header.stateRoot
    if (this.currentRoot === undefined || !equalBytes(this.currentRoot, root)) {
      this.sm.clearCaches()
      this.trieDb.pending.clear()
      await this.sm.setStateRoot(root, true)
      this.currentRoot = root
    }
    await this.sm.checkpoint()
    const restorePrecompiles = movePrecompiles(this.vm, input.stateOverrides)
    try {
      await applyStateOverrides(this.sm, input.stateOverrides)
      return await f()
    } finally {
      restorePrecompiles()
      await this.sm.revert()
    }
  }

  /** What the sender can spend on gas: its balance (after overrides) less the call's value. */
  async balanceAvailable(input: CallInput, block: Block): Promise<bigint> {
    return this.withState(input, block, async () => {
      const balance = (await this.sm.getAccount(new Address(input.call.from ?? ZERO_ADDRESS)))?.balance ?? 0n
      const value = input.call.value ?? 0n
      return balance > value ? balance - value : 0n
    })
  }

  /** Whether an account has code at the call's block (after overrides). */
  async hasCode(input: CallInput, block: Block, address: Uint8Array): Promise<boolean> {
    return this.withState(input, block, async () => (await this.sm.getCode(new Address(address))).length > 0)
  }

  /** The least gas the call can start with: its intrinsic gas, or EIP-7623's calldata floor where that is more. */
  minimumGas(input: CallInput, block: Block): bigint {
    const tx = callTransaction(input.call, block.common, 0n, undefined)
    const intrinsic = tx.getIntrinsicGas()
    if (!block.common.isActivatedEIP(7623)) return intrinsic
    let tokens = 0n
    for (const b of input.call.data ?? []) tokens += b === 0 ? 1n : 4n
    const floor = 21_000n + tokens * tx.common.param('totalCostFloorPerToken')
    return floor > intrinsic ? floor : intrinsic
  }

  /** debug_traceCall: the call run once with a tracer listening; the tracer's result, read before the state reverts. */
  async trace(input: CallInput, opts: TraceOptions): Promise<unknown> {
    const block = await this.prepare(input)
    const attached = attachTracer(this.vm, opts)
    try {
      return await this.withState(input, block, async () => {
        const { tx, result } = await this.runTxOnState(input, block, this.gasLimitOf(input, block), false, undefined, (t) =>
          attached.tracer.start?.(t, block.header.coinbase, this.sm),
        )
        attached.detach()
        if (attached.failure() !== undefined) throw attached.failure()
        return attached.tracer.result(tx, result, this.sm)
      })
    } finally {
      attached.detach()
    }
  }

  /** Runs the call once with `gasLimit` on fresh state (overrides applied); nothing it does is kept. */
  async run(input: CallInput, block: Block, gasLimit: bigint, reportAccessList = false, accessList?: AccessListEntry[]): Promise<CallOutcome> {
    const { result } = await this.runTx(input, block, gasLimit, reportAccessList, accessList)
    const exec = result.execResult
    const list = result.accessList?.map((e) => ({ address: e.address, storageKeys: e.storageKeys }))
    const facts = { gasUsed: result.totalGasSpent, gasRefund: result.gasRefund, ...(list === undefined ? {} : { accessList: list }) }
    if (exec.exceptionError === undefined) return { status: 'success', returnData: exec.returnValue, ...facts }
    if (exec.exceptionError.error === 'revert') return { status: 'revert', returnData: exec.returnValue, ...facts }
    return { status: 'halt', error: exec.exceptionError.error, ...facts }
  }

  private async runTx(
    input: CallInput,
    block: Block,
    gasLimit: bigint,
    reportAccessList: boolean,
    accessList: AccessListEntry[] | undefined,
  ): Promise<{ tx: TypedTransaction; result: Awaited<ReturnType<typeof runTx>> }> {
    return this.withState(input, block, () => this.runTxOnState(input, block, gasLimit, reportAccessList, accessList))
  }

  private async runTxOnState(
    input: CallInput,
    block: Block,
    gasLimit: bigint,
    reportAccessList: boolean,
    accessList: AccessListEntry[] | undefined,
    beforeRun?: (tx: TypedTransaction) => Promise<void> | undefined,
  ): Promise<{ tx: TypedTransaction; result: Awaited<ReturnType<typeof runTx>> }> {
    const c = input.call
    const from = new Address(c.from ?? ZERO_ADDRESS)
    const value = c.value ?? 0n
    const price = c.gasPrice ?? c.maxFeePerGas ?? 0n
    const balance = (await this.sm.getAccount(from))?.balance ?? 0n
    // geth's buyGas check, with its message; the run itself may then skip EthereumJS's own.
    if (balance < value + gasLimit * price) {
      throw new TxRejectedError(
        `insufficient funds for gas * price + value: address ${from.toString()} have ${balance} want ${value + gasLimit * price}`,
        'insufficientFunds',
      )
    }
    const tx = callTransaction(c, block.common, gasLimit, accessList)
    // The sender is who the request says: no signature to recover it from (hence an unfrozen transaction).
    Object.defineProperty(tx, 'getSenderAddress', { value: () => from })
    await beforeRun?.(tx)
    let result: Awaited<ReturnType<typeof runTx>>
    try {
      result = await asEoa(this.sm, from, () =>
        runTx(this.vm, {
          tx,
          block,
          skipNonce: true,
          skipBalance: true,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
          reportAccessList,
        }),
      )
    } catch (e) {
      // EthereumJS's refusal as the domain's; anything else (the store failing) is the node's failure.
      throw txRejectionOf(e) ?? e
    }
    return { tx, result }
  }
}
