import { type Common, Hardfork } from '@ethereumjs/common'
import type { AccessTuple, Authorization, BlockTx } from '../codecs/blockTx.js'
import { keccak256 } from '../crypto/keccak.js'
import { recoverPublicKey } from '../crypto/secp256k1.js'
import { writeWord } from '../evm/words.js'
import { TxRejectedError } from './errors.js'
import { type TxFields, decodeTxFields, legacyChainId, protectedV } from './txDecode.js'

// A block's transaction decoded from its bytes straight into the domain's form (codecs/blockTx.ts), with geth's
// decoding rules and messages (txDecode.ts, the pool's decoder) and geth's signer checks (the chain id signed for,
// the signature values), and the hash its signature signs sliced from those bytes rather than encoded again. What a
// payload's transactions become on the block path, in place of EthereumJS's transaction objects (whose constructor
// copies the chain's parameters for every transaction and checks again what the EVM checks when it applies it).

/** What geth's signer for a block knows: the chain id, and whether EIP-155 and Homestead's low s apply. */
export interface SigningRules {
  readonly chainId: bigint
  readonly eip155: boolean
  readonly homestead: boolean
}

export function signingRulesOf(common: Common): SigningRules {
  return { chainId: common.chainId(), eip155: common.gteHardfork(Hardfork.SpuriousDragon), homestead: common.gteHardfork(Hardfork.Homestead) }
}

/** A block's transaction with what recovering its sender takes; `sender` once recovered. */
export interface SignedTx extends BlockTx {
  /** keccak256 of the message its signature signs. */
  readonly signingHash: Uint8Array
  /** The signature's recovery id, 0 or 1. */
  readonly recoveryId: number
  /** Its sender's address, once recovered (senderRecovery.ts, or the block's run). */
  sender: Uint8Array | undefined
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HALF_N = SECP256K1_N >> 1n
const INVALID_SIG = 'invalid sender: invalid transaction v, r, s values'

/** What the signer checks reads of a transaction (txDecode.ts's DecodedTx has it). */
interface Signature {
  readonly type: number
  readonly protected: boolean
  readonly chainId: bigint | undefined
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
}

/**
 * geth's signer checks before recovery: the chain id the signature commits to, then the signature values
 * (crypto.ValidateSignatureValues: r and s in [1, n), s at most n/2 from Homestead, a recovery id of 0 or 1). Returns
 * the recovery id; throws TxRejectedError ('invalidSender') with geth's message.
 */
export function signatureRecoveryId(d: Signature, rules: SigningRules): number {
  if (d.protected && d.type === 0 && !rules.eip155) throw new TxRejectedError(INVALID_SIG, 'invalidSender')
  if (d.protected && d.chainId !== rules.chainId) {
    throw new TxRejectedError(`invalid sender: invalid chain id for signer: have ${d.chainId} want ${rules.chainId}`, 'invalidSender')
  }
  const recovery = d.type !== 0 ? d.v : d.protected ? d.v - rules.chainId * 2n - 35n : d.v - 27n
  const valid =
    (recovery === 0n || recovery === 1n) && d.r >= 1n && d.r < SECP256K1_N && d.s >= 1n && d.s < SECP256K1_N && (!rules.homestead || d.s <= HALF_N)
  if (!valid) throw new TxRejectedError(INVALID_SIG, 'invalidSender')
  return Number(recovery)
}

interface AccessTupleFields {
  Address: Uint8Array
  StorageKeys: Uint8Array[]
}
interface AuthorizationFields {
  ChainID: bigint
  Address: Uint8Array
  Nonce: bigint
  V: bigint
  R: bigint
  S: bigint
}

const NO_ACCESS: readonly AccessTuple[] = []
const NO_HASHES: readonly Uint8Array[] = []
const NO_AUTHORIZATIONS: readonly Authorization[] = []

/**
 * A block's transaction from its bytes (`raw`: a typed one with its type byte), checked as geth decodes a block's
 * transactions and as its signer checks them under `rules`. Throws TxRejectedError with geth's message. A blob
 * transaction must come without its sidecar (a block carries none).
 */
export function decodeBlockTx(raw: Uint8Array, rules: SigningRules): SignedTx {
  const fields = decodeTxFields(raw)
  if (fields.wrapped !== undefined) throw new TxRejectedError('blob transaction with its sidecar in a block', 'invalidTransaction')
  return signedTxOf(fields, raw, rules)
}

/**
 * A transaction's decoded fields (txDecode.ts) as the domain's signed transaction, `raw` its bytes as a block holds
 * them (a blob transaction's without its sidecar), after geth's signer checks under `rules` (TxRejectedError).
 */
export function signedTxOf({ type, fields: f }: TxFields, raw: Uint8Array, rules: SigningRules): SignedTx {
  const v = f.V as bigint
  const r = f.R as bigint
  const s = f.S as bigint
  const isProtected = type !== 0 || protectedV(v)
  const chainId = type !== 0 ? (f.ChainID as bigint) : isProtected ? legacyChainId(v) : undefined
  const recoveryId = signatureRecoveryId({ type, protected: isProtected, chainId, v, r, s }, rules)
  const gasPrice = f.GasPrice as bigint | undefined
  const access = f.AccessList as AccessTupleFields[] | undefined
  const auths = f.AuthList as AuthorizationFields[] | undefined
  return {
    type,
    raw,
    hash: keccak256(raw),
    chainId,
    nonce: f.Nonce as bigint,
    gasLimit: f.Gas as bigint,
    gasPrice,
    maxFeePerGas: gasPrice ?? (f.GasFeeCap as bigint),
    maxPriorityFeePerGas: gasPrice ?? (f.GasTipCap as bigint),
    maxFeePerBlobGas: (f.BlobFeeCap as bigint | undefined) ?? 0n,
    to: f.To as Uint8Array | undefined,
    value: f.Value as bigint,
    data: f.Data as Uint8Array,
    accessList: access === undefined || access.length === 0 ? NO_ACCESS : access.map((t) => ({ address: t.Address, storageKeys: t.StorageKeys })),
    blobVersionedHashes: (f.BlobHashes as Uint8Array[] | undefined) ?? NO_HASHES,
    authorizationList:
      auths === undefined
        ? NO_AUTHORIZATIONS
        : auths.map((a) => ({ chainId: a.ChainID, address: a.Address, nonce: a.Nonce, yParity: a.V, r: a.R, s: a.S })),
    v,
    r,
    s,
    signingHash: keccak256(signedMessage(raw, type, v, r, s, type === 0 && isProtected ? chainId : undefined)),
    recoveryId,
    sender: undefined,
  }
}

/**
 * The message a transaction's signature signs, from its bytes: the same list without its last three items (v, r, s)
 * — for a typed transaction after its type byte, for an EIP-155 legacy one with the chain id and two empty strings in
 * their place. The decoder checked the encoding canonical, so the three items' lengths follow from their values.
 */
function signedMessage(raw: Uint8Array, type: number, v: bigint, r: bigint, s: bigint, eip155ChainId: bigint | undefined): Uint8Array {
  const list = type === 0 ? raw : raw.subarray(1)
  const first = list[0]!
  const contentAt = first < 0xf8 ? 1 : 1 + (first - 0xf7)
  const unsignedLength = list.length - contentAt - uintItemLength(v) - uintItemLength(r) - uintItemLength(s)
  const tail = eip155ChainId === undefined ? undefined : [...uintItem(eip155ChainId), 0x80, 0x80]
  const payload = unsignedLength + (tail?.length ?? 0)
  const prefix = lengthPrefix(0xc0, payload)
  const typeBytes = type === 0 ? 0 : 1
  const out = new Uint8Array(typeBytes + prefix.length + payload)
  if (type !== 0) out[0] = type
  out.set(prefix, typeBytes)
  out.set(list.subarray(contentAt, contentAt + unsignedLength), typeBytes + prefix.length)
  if (tail !== undefined) out.set(tail, typeBytes + prefix.length + unsignedLength)
  return out
}

/** The bytes of a positive integer's minimal big-endian form (a signature's r and s: one string, not 32 shifts). */
function byteLength(x: bigint): number {
  return (x.toString(16).length + 1) >> 1
}

/** The length of an unsigned integer's canonical RLP item. */
function uintItemLength(x: bigint): number {
  if (x < 128n) return 1
  const n = byteLength(x)
  return lengthPrefixLength(n) + n
}

/** An unsigned integer's canonical RLP item. */
function uintItem(x: bigint): number[] {
  if (x === 0n) return [0x80]
  if (x < 128n) return [Number(x)]
  const bytes: number[] = []
  for (let v = x; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return [...lengthPrefix(0x80, bytes.length), ...bytes]
}

function lengthPrefixLength(n: number): number {
  if (n < 56) return 1
  let bytes = 0
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes++
  return 1 + bytes
}

/** An RLP string's (base 0x80) or list's (base 0xc0) header for `n` bytes of content. */
function lengthPrefix(base: number, n: number): Uint8Array {
  if (n < 56) return Uint8Array.of(base + n)
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Uint8Array.of(base + 55 + bytes.length, ...bytes)
}

/** The 64-byte public key that signed `tx`, or undefined when its signature recovers none. */
export function recoverSenderKey(tx: SignedTx): Uint8Array | undefined {
  const sig = new Uint8Array(64)
  writeWord(sig, 0, tx.r)
  writeWord(sig, 32, tx.s)
  return recoverPublicKey(sig, tx.recoveryId, tx.signingHash)
}

/** The address of a 64-byte public key. */
export const addressOfKey = (key: Uint8Array): Uint8Array => keccak256(key).subarray(12)

/** `tx`'s sender, recovered once; undefined when its signature recovers no key. */
export function senderOf(tx: SignedTx): Uint8Array | undefined {
  if (tx.sender !== undefined) return tx.sender
  const key = recoverSenderKey(tx)
  if (key === undefined) return undefined
  tx.sender = addressOfKey(key)
  return tx.sender
}
