import { minedOnDemand, pooled } from './transactions.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../../crypto/keccak.js'
import { type NodeContext, nodePart } from '../context.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import type { PersonalSignParams, SendTransactionParams, SignParams, SignTypedDataParams } from '../../wire/ethParams.js'
import type { Bytes, Hash32 } from '../../wire/primitives.js'
import { fillRequest } from './fill.js'
import { encodeSigned } from './txEncoding.js'
import { signingRulesOf } from '../../exec/blockTx.js'
import { knownSigner } from '../../txrules/txValidation.js'
import { type TypedData, typedDataDigest } from './typedData.js'

// The dev chain's wallet, as anvil has it: eth_sendTransaction, eth_sign and personal_sign for the ten dev accounts
// (whose keys are public), with nonce, gas and fees filled in. Elsewhere the node holds no keys: "unknown account".

type Ctx = Pick<NodeContext, 'devKeys'>

function keyOf(ctx: Ctx, address: string): Uint8Array {
  const key = ctx.devKeys.get(address.toLowerCase())
  if (key === undefined) throw new ServerError('unknown account')
  return hexToBytes(key)
}

/** A signature over a 32-byte digest: r ‖ s ‖ v (27/28). */
function signDigest(key: Uint8Array, digest: Uint8Array): string {
  const sig = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' })
  return bytesToHex(Buffer.concat([sig.subarray(1), Uint8Array.of(27 + sig[0]!)]))
}

/** EIP-191 personal message signature. */
function signMessage(key: Uint8Array, message: Uint8Array): string {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`)
  return signDigest(key, keccak256(Buffer.concat([prefix, message])))
}

/** eth_signTypedData_v4: EIP-712 typed data (an object, or its JSON text as MetaMask sends it). */
export function signTypedData([address, data]: SignTypedDataParams, ctx: Ctx): Bytes {
  const key = keyOf(ctx, address)
  let typed: TypedData
  try {
    typed = (typeof data === 'string' ? JSON.parse(data) : data) as TypedData
  } catch {
    throw new InvalidParamsError('typed data is not JSON')
  }
  if (typeof typed !== 'object' || typed === null || typeof typed.types !== 'object' || typeof typed.primaryType !== 'string') {
    throw new InvalidParamsError('typed data needs types, primaryType, domain and message')
  }
  return signDigest(key, typedDataDigest({ ...typed, domain: typed.domain ?? {}, message: typed.message ?? {} }))
}

export const sign = ([address, data]: SignParams, ctx: Ctx): Bytes => signMessage(keyOf(ctx, address), hexToBytes(data))
export const personalSign = ([data, address]: PersonalSignParams, ctx: Ctx): Bytes => signMessage(keyOf(ctx, address), hexToBytes(data))

/** Whether a legacy transaction signed now commits to the chain id (EIP-155): by the next block's rules. */
function signsForChain(ctx: Pick<NodeContext, 'spec' | 'chain'>): boolean {
  return signingRulesOf(ctx.spec.commonAfter(ctx.chain.headHeader())).eip155
}

/**
 * eth_sendTransaction: the call object filled as geth fills it (fill.ts: nonce, fees, the gas estimate with its
 * errors, chain id), signed with the dev account's key, submitted. Blob transactions are refused as geth refuses
 * them: the wallet cannot make their sidecars.
 *
 * Without a nonce, as geth's SendTransaction: filled, signed and pooled under the sender's nonce lock, so that sends
 * from one account fired together take consecutive nonces (each read the pool's nonce before the one before it was
 * pooled, and all but one were "replacement transaction underpriced"). The lock is let go once the pool has the
 * transaction (or the send failed: a reverting estimate leaves the nonce to the next send), not once its block is
 * made: on a chain that mines on demand the sends waiting meanwhile share the next block instead of taking one
 * block each, one after another.
 */
export async function sendTransaction([tx]: SendTransactionParams, ctx: NodeContext): Promise<Hash32> {
  if (tx.from === undefined) throw new ServerError('from is required')
  const key = keyOf(ctx, tx.from)
  if (tx.blobVersionedHashes !== undefined || tx.maxFeePerBlobGas !== undefined) throw new ServerError('signing blob transactions not supported')
  const fillSignPool = async (): Promise<string> => {
    const filled = await fillRequest(tx, ctx)
    return pooled(ctx, encodeSigned(filled, key, filled.type === 0 && signsForChain(ctx)), knownSigner(key))
  }
  // A nonce given is the client's to keep apart, as geth leaves it: no lock then.
  const hash = tx.nonce === undefined ? await nodePart(ctx.nonceLock).run(tx.from.toLowerCase(), fillSignPool) : await fillSignPool()
  return minedOnDemand(ctx, hash)
}
