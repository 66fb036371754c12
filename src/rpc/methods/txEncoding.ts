import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../../crypto/keccak.js'
import { ecsign } from '../../crypto/secp256k1.js'
import { concatBytes, hexToBytes } from '../../util/hex.js'
import type { CallObject } from '../../wire/ethParams.js'

// A filled request (fill.ts) encoded as geth's types.Transaction encodes it, unsigned (eth_fillTransaction: a zero
// signature) or signed with a dev key (the wallet's eth_sendTransaction, geth's SignTx): RLP straight from the
// request's values, with no transaction object made — EthereumJS's constructor copied the chain's parameters for
// each of the two objects an unsigned transaction and its signed copy were, on every dev send.

/** A request with every default filled: what geth's ToTransaction turns into a transaction. */
export interface FilledRequest {
  type: 0 | 1 | 2 | 3 | 4
  chainId: bigint
  nonce: bigint
  to: string | undefined
  gas: bigint
  gasPrice?: bigint
  maxPriorityFeePerGas?: bigint
  maxFeePerGas?: bigint
  maxFeePerBlobGas?: bigint
  value: bigint
  input: string
  accessList: NonNullable<CallObject['accessList']>
  blobVersionedHashes?: string[]
  authorizationList?: NonNullable<CallObject['authorizationList']>
}

type Item = Uint8Array | Item[]

const EMPTY = new Uint8Array(0)

/** An unsigned integer as RLP encodes it: big-endian, no leading zeros (0 is empty). */
const uint = bigIntToUnpaddedBytes

/** The transaction's fields before its signature, in its type's order. */
function unsignedFields(f: FilledRequest): Item[] {
  const to = f.to === undefined ? EMPTY : hexToBytes(f.to)
  const data = hexToBytes(f.input)
  if (f.type === 0) return [uint(f.nonce), uint(f.gasPrice!), uint(f.gas), to, uint(f.value), data]
  const accessList: Item = f.accessList.map((a) => [hexToBytes(a.address), a.storageKeys.map(hexToBytes)])
  if (f.type === 1) return [uint(f.chainId), uint(f.nonce), uint(f.gasPrice!), uint(f.gas), to, uint(f.value), data, accessList]
  const head = [
    uint(f.chainId),
    uint(f.nonce),
    uint(f.maxPriorityFeePerGas!),
    uint(f.maxFeePerGas!),
    uint(f.gas),
    to,
    uint(f.value),
    data,
    accessList,
  ]
  if (f.type === 3) return [...head, uint(f.maxFeePerBlobGas!), f.blobVersionedHashes!.map(hexToBytes)]
  if (f.type === 4) {
    const auths = f.authorizationList!.map((a) => [
      uint(BigInt(a.chainId)),
      hexToBytes(a.address),
      uint(BigInt(a.nonce)),
      uint(BigInt(a.yParity)),
      uint(BigInt(a.r)),
      uint(BigInt(a.s)),
    ])
    return [...head, auths]
  }
  return head
}

/** A typed transaction's bytes are its type byte and its list; a legacy one's, the list. */
const typed = (type: number, list: Item[]): Uint8Array => (type === 0 ? RLP.encode(list) : concatBytes(Uint8Array.of(type), RLP.encode(list)))

/** The unsigned transaction with a zero signature, as geth's MarshalBinary of it (eth_fillTransaction's raw). */
export function encodeUnsigned(f: FilledRequest): Uint8Array {
  return typed(f.type, [...unsignedFields(f), EMPTY, EMPTY, EMPTY])
}

/**
 * The transaction signed with `key` (geth's SignTx with the latest signer): a legacy one for the chain id (EIP-155)
 * when `eip155`, else unprotected (v 27/28); typed ones always commit to theirs.
 */
export function encodeSigned(f: FilledRequest, key: Uint8Array, eip155: boolean): Uint8Array {
  const fields = unsignedFields(f)
  const legacyProtected = f.type === 0 && eip155
  const message = typed(f.type, legacyProtected ? [...fields, uint(f.chainId), EMPTY, EMPTY] : fields)
  const sig = ecsign(keccak256(message), key)
  const recid = BigInt(sig[0]!)
  const v = f.type !== 0 ? recid : legacyProtected ? recid + 35n + 2n * f.chainId : recid + 27n
  return typed(f.type, [...fields, uint(v), unpadBytes(sig.subarray(1, 33)), unpadBytes(sig.subarray(33, 65))])
}
