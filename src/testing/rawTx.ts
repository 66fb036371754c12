import { RLP } from '@ethereumjs/rlp'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'

// Signed transactions of any content, encoded and signed by hand: what a library refuses to make (a tip above the
// fee cap, more gas than EIP-7825 allows, another chain's id, no replay protection) is what a node must refuse.

export interface RawTxFields {
  /** 0 (legacy), 1 (access list) or 2 (fee market). */
  type: 0 | 1 | 2
  /** The chain id signed for; for a legacy transaction, undefined signs without EIP-155 replay protection. */
  chainId: bigint | undefined
  nonce: bigint
  /** gasPrice (types 0 and 1) or maxFeePerGas. */
  maxFee: bigint
  /** maxPriorityFeePerGas (type 2). */
  tip?: bigint
  gasLimit: bigint
  /** Undefined: a contract creation. */
  to: string | undefined
  value: bigint
  data: Uint8Array
}

const int = (n: bigint): Uint8Array =>
  n === 0n ? new Uint8Array() : hexToBytes(`0x${n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0')}`)

/** The transaction signed with `key` (32 bytes), as eth_sendRawTransaction takes it (0x-hex). */
export function signRawTx(f: RawTxFields, key: Uint8Array): string {
  const to = f.to === undefined ? new Uint8Array() : hexToBytes(f.to)
  const common = [int(f.nonce)]
  let unsigned: Uint8Array[]
  let prefix: Uint8Array
  if (f.type === 0) {
    unsigned = [int(f.nonce), int(f.maxFee), int(f.gasLimit), to, int(f.value), f.data]
    prefix = new Uint8Array()
  } else {
    if (f.chainId === undefined) throw new Error('a typed transaction has a chain id')
    const fees = f.type === 1 ? [int(f.maxFee)] : [int(f.tip ?? 0n), int(f.maxFee)]
    unsigned = [int(f.chainId), ...common, ...fees, int(f.gasLimit), to, int(f.value), f.data, [] as unknown as Uint8Array]
    prefix = Uint8Array.of(f.type)
  }
  const eip155 = f.type === 0 && f.chainId !== undefined ? [int(f.chainId), new Uint8Array(), new Uint8Array()] : []
  const hash = keccak256(concatBytes(prefix, RLP.encode([...unsigned, ...eip155])))
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, key, { prehash: false, format: 'recovered' }), 'recovered')
  const recovery = BigInt(sig.recovery!)
  const v = f.type !== 0 ? recovery : f.chainId === undefined ? 27n + recovery : 35n + 2n * f.chainId + recovery
  return bytesToHex(concatBytes(prefix, RLP.encode([...unsigned, int(v), int(sig.r), int(sig.s)])))
}
