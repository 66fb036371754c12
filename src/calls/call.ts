import { type Block, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { type TypedTransaction, createTx } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { type VM, runTx } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import type { OverlayTrieDB } from '../trie/trieDb.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import type { AncestorView } from '../exec/ancestors.js'
import { TxRejectedError } from '../exec/errors.js'
import { createStoreVm } from '../exec/storeVm.js'
import { type TraceOptions, attachTracer } from './trace.js'
import { setBounded } from '../util/boundedMap.js'
import { CallReadCache } from './readCache.js'

// eth_call, eth_estimateGas and eth_createAccessList: a transaction run on a block's state (with overrides) and
// thrown away, in a worker. The sender needs no signature; nonces are not checked; with no fee given the call is
// free (gas price 0, and the block's base fee 0 for it, as geth's NoBaseFee).

export interface CallRequest {
  from?: Uint8Array
  /** undefined: contract creation. */
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  maxFeePerBlobGas?: bigint
  blobVersionedHashes?: Uint8Array[]
  value?: bigint
  data?: Uint8Array
  accessList?: { address: Uint8Array; storageKeys: Uint8Array[] }[]
  authorizationList?: { chainId: bigint; address: Uint8Array; nonce: bigint; yParity: bigint; r: bigint; s: bigint }[]
}

export interface AccountOverride {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  /** Replaces all storage. */
  state?: { slot: Uint8Array; value: Uint8Array }[]
  /** Changes these slots only. */
  stateDiff?: { slot: Uint8Array; value: Uint8Array }[]
  /** This account is a precompile: it moves there for the call (and this address may then get code). */
  movePrecompileTo?: Uint8Array
}

export interface BlockOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: Uint8Array
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
}

export interface CallInput {
  blockHash: Uint8Array
  call: CallRequest
  stateOverrides?: { address: Uint8Array; override: AccountOverride }[]
  blockOverrides?: BlockOverrides
  /** --rpc.gascap: the most gas a call may use (and an estimate may find). */
  gasCap: bigint
}

/** What one run did: a result, a revert (with its data), or another exceptional halt (out of gas, …). */
export type CallOutcome = (
  | { status: 'success'; returnData: Uint8Array }
  | { status: 'revert'; returnData: Uint8Array }
  | { status: 'halt'; error: string }
) & { gasUsed: bigint; gasRefund: bigint; accessList?: AccessListEntry[] }

export interface AccessListEntry {
  address: string
  storageKeys: string[]
}

/** The block the call is not in: undefined when the store does not have it. */
export class UnknownCallBlockError extends Error {}

const ZERO_ADDRESS = new Uint8Array(20)
/** EIP-7825 (Osaka): no transaction may use more. */
const MAX_TX_GAS = 16_777_216n

/** One per worker thread: a VM over its own trie view, re-rooted for every call. */
export class CallRunner {
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

  static async create(spec: ChainSpec, store: ChainStore): Promise<CallRunner> {
    const { trieDb, state, vm, ancestors } = await createStoreVm(spec, store)
    return new CallRunner(spec, store, trieDb, state, vm, ancestors)
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
      throw new TxRejectedError(`invalid block overrides: ${(e as Error).message}`)
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
      throw new TxRejectedError(`insufficient funds for gas * price + value: address ${from.toString()} have ${balance} want ${value + gasLimit * price}`)
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
      throw new TxRejectedError(conventionalMessage((e as Error).message))
    }
    return { tx, result }
  }
}

/** EthereumJS's validation messages carry its block/tx debug suffix; keep the reason. */
function conventionalMessage(message: string): string {
  return message.replace(/ \(vm hf=.*$/s, '').replace(/ -> .*$/s, '')
}

/**
 * geth refuses a call whose fields need a fork the call's block does not have (the type field itself is ignored):
 * 1559 fee fields before London, an access list before Berlin, blob fields before Cancun, authorizations before
 * Prague — with its messages, as -32000.
 */
function checkFieldsActive(c: CallRequest, common: Common): void {
  if ((c.maxFeePerGas !== undefined || c.maxPriorityFeePerGas !== undefined) && !common.isActivatedEIP(1559)) {
    throw new TxRejectedError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active')
  }
  if (c.authorizationList !== undefined && !common.isActivatedEIP(7702)) throw new TxRejectedError('transaction type not supported: setcode tx')
  if ((c.blobVersionedHashes !== undefined || c.maxFeePerBlobGas !== undefined) && !common.isActivatedEIP(4844)) {
    throw new TxRejectedError('transaction type not supported: blob tx')
  }
  if (c.accessList !== undefined && !common.isActivatedEIP(2930)) throw new TxRejectedError('transaction type not supported: access list tx')
}

/**
 * The unsigned transaction a call object describes (its type from the fields given, as geth's ToTransaction), with
 * the nonce given (calls do not check it). Unfrozen: a caller sets its sender, having no signature to recover.
 */
export function callTransaction(
  c: CallRequest,
  common: Common,
  gasLimit: bigint,
  accessList: AccessListEntry[] | undefined,
  nonce = 0n,
): TypedTransaction {
  checkFieldsActive(c, common)
  const list = accessList ?? c.accessList?.map((a) => ({ address: bytesToHex(a.address), storageKeys: a.storageKeys.map((k) => bytesToHex(k)) }))
  const base = {
    nonce,
    gasLimit,
    value: c.value ?? 0n,
    data: c.data ?? new Uint8Array(),
    ...(c.to === undefined ? {} : { to: c.to }),
  }
  if (c.authorizationList !== undefined) {
    return createTx(
      {
        type: 4,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? c.gasPrice ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? c.gasPrice ?? 0n,
        accessList: list ?? [],
        authorizationList: c.authorizationList.map((a) => ({
          chainId: `0x${a.chainId.toString(16)}`,
          address: bytesToHex(a.address),
          nonce: `0x${a.nonce.toString(16)}`,
          yParity: `0x${a.yParity.toString(16)}`,
          r: `0x${a.r.toString(16)}`,
          s: `0x${a.s.toString(16)}`,
        })),
      } as never,
      { common, freeze: false },
    )
  }
  if (c.blobVersionedHashes !== undefined) {
    return createTx(
      {
        type: 3,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? c.gasPrice ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? 0n,
        maxFeePerBlobGas: c.maxFeePerBlobGas ?? 0n,
        blobVersionedHashes: c.blobVersionedHashes.map((h) => bytesToHex(h)),
        accessList: list ?? [],
      } as never,
      { common, freeze: false },
    )
  }
  if (c.gasPrice === undefined && common.isActivatedEIP(1559)) {
    return createTx(
      {
        type: 2,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? 0n,
        accessList: list ?? [],
      } as never,
      { common, freeze: false },
    )
  }
  if (list !== undefined && common.isActivatedEIP(2930)) {
    return createTx({ type: 1, ...base, gasPrice: c.gasPrice ?? 0n, accessList: list } as never, { common, freeze: false })
  }
  return createTx({ type: 0, ...base, gasPrice: c.gasPrice ?? 0n } as never, { common, freeze: false })
}

/** Balance, nonce, code and storage overrides, written into the state (inside the caller's checkpoint). */
export async function applyStateOverrides(sm: MerkleStateManager, overrides: CallInput['stateOverrides']): Promise<void> {
  for (const { address, override: o } of overrides ?? []) {
    const a = new Address(address)
    if (o.balance !== undefined || o.nonce !== undefined) {
      await sm.modifyAccountFields(a, {
        ...(o.balance === undefined ? {} : { balance: o.balance }),
        ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
      })
    }
    if (o.code !== undefined) await sm.putCode(a, o.code)
    if (o.state !== undefined) {
      await sm.clearStorage(a)
      for (const s of o.state) await sm.putStorage(a, s.slot, s.value)
    }
    for (const s of o.stateDiff ?? []) await sm.putStorage(a, s.slot, s.value)
  }
}

/** movePrecompileToAddress, as geth applies it; returns what puts the precompiles back. */
export function movePrecompiles(vm: VM, overrides: CallInput['stateOverrides']): () => void {
  const map = vm.evm.precompiles
  const moves = (overrides ?? []).filter((o) => o.override.movePrecompileTo !== undefined)
  if (moves.length === 0) return () => {}
  const saved = new Map(map)
  const key = (a: Uint8Array) => Buffer.from(a).toString('hex')
  const restore = () => {
    map.clear()
    for (const [k, v] of saved) map.set(k, v)
  }
  const moved = new Set<string>()
  for (const { address, override } of moves) {
    const from = key(address)
    const to = key(override.movePrecompileTo!)
    const fn = saved.get(from)
    if (fn === undefined) {
      restore()
      throw new TxRejectedError(`account 0x${from} is not a precompile`)
    }
    if (moved.has(to)) {
      restore()
      throw new TxRejectedError(`account 0x${to} has already been overridden by a precompile`)
    }
    moved.add(to)
    map.delete(from)
    map.set(to, fn)
  }
  return restore
}

/**
 * Runs a transaction from an account that may have code: geth never applies EIP-3607 to calls and simulations, EthereumJS
 * always does. The sender's code is set aside for the run and put back after (a call into the sender itself sees
 * no code meanwhile).
 */
export async function asEoa<T>(sm: MerkleStateManager, from: Address, run: () => Promise<T>): Promise<T> {
  const code = await sm.getCode(from)
  if (code.length === 0 || isDelegation(code)) return run()
  await sm.putCode(from, new Uint8Array())
  try {
    return await run()
  } finally {
    await sm.putCode(from, code)
  }
}

/** An EIP-7702 delegation designator, which EthereumJS already lets send. */
function isDelegation(code: Uint8Array): boolean {
  return code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00
}
