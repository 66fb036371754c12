import { keccak256 } from './keccak.js'

/** An address in EIP-55's mixed-case checksum form, as geth prints addresses in its messages. */
export function checksumAddress(address: Uint8Array): string {
  const hex = Buffer.from(address).toString('hex')
  const hash = keccak256(new TextEncoder().encode(hex))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 15
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!
  }
  return out
}
