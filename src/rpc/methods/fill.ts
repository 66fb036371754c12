import { keccak256 } from '../../crypto/keccak.js'
import { bytesToHex, equalBytes, hexToBytes, toQuantity } from '../../util/hex.js'
import type { NodeContext } from '../context.js'
import { ServerError } from '../errors.js'
import type { CallObject, SendTransactionParams } from '../../wire/ethParams.js'
import type { FillTransactionResult, FilledTransaction } from '../../wire/results.js'
import { callInput, estimatedGas } from './call.js'
import { type FilledRequest, encodeUnsigned } from './txEncoding.js'
import type { Lane } from '../../workers/pool.js'

// A transaction request completed as geth's TransactionArgs.setDefaults and ToTransaction complete it, in geth's
// order and words: fees, value, nonce, the request's own checks, gas (the estimate eth_estimateGas gives, errors
// included), chain id. eth_fillTransaction answers the result unsigned; the dev wallet's eth_sendTransaction signs it.

/** What the filling reads: the head, the tip oracle, the head's nonces and the pool's, the lane the estimate runs in. */
export type FillCtx = Pick<NodeContext, 'spec' | 'store' | 'chain' | 'fees' | 'flatState' | 'txPool' | 'pool' | 'limits' | 'calls'>

/** geth's params.BlobTxMaxBlobs: the most blob hashes a request may carry. */
const MAX_BLOBS = 6
/** Reads of a sender's nonce in the lane while blocks keep landing; the last one is used even if stale. */
const NONCE_READS = 3
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

const big = (q: string | undefined): bigint | undefined => (q === undefined ? undefined : BigInt(q))
/** hexutil.Big's %v, as geth's messages print fee caps. */
const hexOf = (v: bigint): string => `0x${v.toString(16)}`

function checkCaps(maxFee: bigint, tip: bigint): void {
  if (maxFee < tip) throw new ServerError(`maxFeePerGas (${hexOf(maxFee)}) < maxPriorityFeePerGas (${hexOf(tip)})`)
}

export async function fillRequest(tx: CallObject, ctx: FillCtx): Promise<FilledRequest> {
  const header = ctx.chain.headHeader()
  // setFeeDefaults, against the head as geth reads it.
  let blobFee = big(tx.maxFeePerBlobGas)
  if (blobFee === 0n) throw new ServerError('maxFeePerBlobGas, if specified, must be non-zero')
  if (tx.blobVersionedHashes !== undefined && blobFee === undefined && ctx.spec.isActive('cancun', header.number, header.timestamp)) {
    // Twice the head's blob base fee: slack for a rising blob fee, as geth leaves.
    blobFee = 2n * (ctx.fees.blobBaseFeeAt(header.excessBlobGas, header.timestamp) ?? 0n)
  }
  let gasPrice = big(tx.gasPrice)
  let maxFee = big(tx.maxFeePerGas)
  let tip = big(tx.maxPriorityFeePerGas)
  if (gasPrice !== undefined && (maxFee !== undefined || tip !== undefined)) {
    throw new ServerError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  if (gasPrice !== undefined && tx.authorizationList !== undefined) throw new ServerError('both gasPrice and authorizationList specified')
  const london = ctx.spec.isActive('london', header.number, header.timestamp)
  if (maxFee !== undefined && tip !== undefined) {
    if (maxFee === 0n) throw new ServerError('maxFeePerGas must be non-zero')
    checkCaps(maxFee, tip)
  } else if (gasPrice !== undefined) {
    if (gasPrice === 0n && london) throw new ServerError('gasPrice must be non-zero after london fork')
  } else if (london) {
    tip ??= ctx.fees.suggestTip()
    // Twice the head's base fee plus the tip: the transaction stays includable while the base fee rises.
    maxFee ??= tip + 2n * header.baseFee
    checkCaps(maxFee, tip)
  } else {
    if (maxFee !== undefined || tip !== undefined)
      throw new ServerError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active')
    gasPrice = ctx.fees.suggestTip()
  }
  const value = big(tx.value) ?? 0n
  const from = tx.from ?? ZERO_ADDRESS
  let nonce = big(tx.nonce)
  nonce ??= await poolNonce(ctx, from)
  if (tx.data !== undefined && tx.input !== undefined && tx.data !== tx.input) {
    throw new ServerError(`both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`)
  }
  const input = tx.input ?? tx.data ?? '0x'
  const hashes = tx.blobVersionedHashes
  if (hashes !== undefined && hashes.length === 0) throw new ServerError('need at least 1 blob for a blob transaction')
  if (hashes !== undefined && hashes.length > MAX_BLOBS) {
    throw new ServerError(`too many blobs in transaction (have=${hashes.length}, max=${MAX_BLOBS})`)
  }
  const to = tx.to === null ? undefined : tx.to
  if (to === undefined) {
    if (hashes !== undefined) throw new ServerError('missing "to" in blob transaction')
    if (input === '0x') throw new ServerError('contract creation without any data provided')
    if ((tx.authorizationList?.length ?? 0) > 0) throw new ServerError('authorizationList provided for contract creation, but "to" field is missing')
  }
  const fees = {
    ...(gasPrice === undefined ? {} : { gasPrice: toQuantity(gasPrice) }),
    ...(maxFee === undefined ? {} : { maxFeePerGas: toQuantity(maxFee) }),
    ...(tip === undefined ? {} : { maxPriorityFeePerGas: toQuantity(tip) }),
    ...(blobFee === undefined ? {} : { maxFeePerBlobGas: toQuantity(blobFee) }),
  }
  // The estimate runs with the fees just filled, as geth's: they bound the gas the sender's balance can pay for.
  const gas =
    big(tx.gas) ??
    (await estimatedGas(
      { ...ctx, pool: admitted(ctx.pool) },
      callInput(
        ctx,
        {
          ...(tx.from === undefined ? {} : { from: tx.from }),
          ...(to === undefined ? {} : { to }),
          ...fees,
          value: toQuantity(value),
          input,
          ...(tx.accessList === undefined ? {} : { accessList: tx.accessList }),
          ...(hashes === undefined ? {} : { blobVersionedHashes: hashes }),
          ...(tx.authorizationList === undefined ? {} : { authorizationList: tx.authorizationList }),
        },
        'latest',
      ),
    ))
  if (tx.chainId !== undefined && BigInt(tx.chainId) !== ctx.spec.chainId) {
    throw new ServerError(`chainId does not match node's (have=${BigInt(tx.chainId)}, want=${ctx.spec.chainId})`)
  }
  // geth's ToTransaction with the 1559 type as default; a gas price makes it legacy. Unlike geth, a gas price with an
  // access list makes an EIP-2930 transaction rather than dropping the list.
  const type = gasPrice !== undefined ? (tx.accessList === undefined ? 0 : 1) : tx.authorizationList !== undefined ? 4 : hashes !== undefined ? 3 : 2
  return {
    type,
    chainId: ctx.spec.chainId,
    nonce,
    to: to?.toLowerCase(),
    gas,
    ...(type <= 1 ? { gasPrice: gasPrice! } : { maxPriorityFeePerGas: tip!, maxFeePerGas: maxFee! }),
    ...(type === 3 ? { maxFeePerBlobGas: blobFee ?? 0n, blobVersionedHashes: hashes! } : {}),
    value,
    input,
    accessList: (tx.accessList ?? []).map((a) => ({ address: a.address.toLowerCase(), storageKeys: a.storageKeys })),
    ...(type === 4 ? { authorizationList: tx.authorizationList! } : {}),
  }
}

/**
 * The lane as a call the envelope admitted to it already sees it. eth_sendTransaction and eth_fillTransaction are the
 * lane's methods: each took its place before it ran, and an estimate the serving thread leaves to the lane runs on
 * that place. Asking the body for another answered -32005 even on an idle lane, as the body had only the one.
 */
const admitted = (lane: Lane): Lane => ({ run: (task, o) => lane.run(task, o), admits: (calls) => calls })

/**
 * geth's GetPoolNonce: the sender's next nonce, after its transactions in the pool. The state nonce it starts from
 * must be the head's that the pool is at: a block landing between an older read and the pool's lookup takes the
 * sender's mined transactions out of the pool, and the nonce after them is lost (concurrent sends from one account
 * got a mined one's nonce: "nonce too low"). The flat table answers at the head on this thread, in the pool's turn;
 * when it does not hold the head's state, the lane's read is repeated while the head moves under it.
 */
async function poolNonce(ctx: FillCtx, from: string): Promise<bigint> {
  const next = (stateNonce: bigint) => ctx.txPool?.nextNonce(from.toLowerCase(), stateNonce) ?? stateNonce
  const flat = ctx.flatState.headAccount('nonce', from)
  if (flat !== undefined) return next(BigInt(flat))
  for (let attempt = 1; ; attempt++) {
    const head = ctx.chain.head()
    const stateNonce = (await ctx.pool.run({ op: 'state', query: { kind: 'nonce', blockHash: head.hash, address: hexToBytes(from) } })) as string
    if (attempt === NONCE_READS || equalBytes(ctx.chain.head().hash, head.hash)) return next(BigInt(stateNonce))
  }
}

/**
 * eth_fillTransaction (geth's internal/ethapi): the request with its defaults, unsigned, as `raw` (the encoding with
 * a zero signature, geth's MarshalBinary) and as `tx` in geth's types.Transaction JSON (null fee members of the other
 * kind, a zero signature, the hash of `raw`).
 */
export async function fillTransaction([tx]: SendTransactionParams, ctx: FillCtx): Promise<FillTransactionResult> {
  const f = await fillRequest(tx, ctx)
  const raw = encodeUnsigned(f)
  const typed = f.type !== 0
  const json: FilledTransaction = {
    type: toQuantity(BigInt(f.type)),
    // geth names the chain of a legacy transaction only when its signature does (EIP-155): not while unsigned.
    ...(typed ? { chainId: toQuantity(f.chainId) } : {}),
    nonce: toQuantity(f.nonce),
    to: f.to ?? null,
    gas: toQuantity(f.gas),
    gasPrice: f.gasPrice === undefined ? null : toQuantity(f.gasPrice),
    maxPriorityFeePerGas: f.maxPriorityFeePerGas === undefined ? null : toQuantity(f.maxPriorityFeePerGas),
    maxFeePerGas: f.maxFeePerGas === undefined ? null : toQuantity(f.maxFeePerGas),
    ...(f.maxFeePerBlobGas === undefined ? {} : { maxFeePerBlobGas: toQuantity(f.maxFeePerBlobGas) }),
    value: toQuantity(f.value),
    input: f.input,
    ...(typed ? { accessList: f.accessList } : {}),
    ...(f.blobVersionedHashes === undefined ? {} : { blobVersionedHashes: f.blobVersionedHashes }),
    ...(f.authorizationList === undefined || f.authorizationList.length === 0
      ? {}
      : {
          authorizationList: f.authorizationList.map((a) => ({
            chainId: toQuantity(BigInt(a.chainId)),
            address: a.address.toLowerCase(),
            nonce: toQuantity(BigInt(a.nonce)),
            yParity: toQuantity(BigInt(a.yParity)),
            r: toQuantity(BigInt(a.r)),
            s: toQuantity(BigInt(a.s)),
          })),
        }),
    v: '0x0',
    r: '0x0',
    s: '0x0',
    ...(typed ? { yParity: '0x0' } : {}),
    hash: bytesToHex(keccak256(raw)),
  }
  return { raw: bytesToHex(raw), tx: json }
}
