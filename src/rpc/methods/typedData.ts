import { keccak256 } from '../../crypto/keccak.js'
import { InvalidParamsError } from '../errors.js'

// EIP-712's hashing, for eth_signTypedData_v4: the digest 0x1901 ‖ domainSeparator ‖ hashStruct(message).

export interface TypedData {
  types: Record<string, { name: string; type: string }[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

const DOMAIN_FIELDS: [string, string][] = [
  ['name', 'string'],
  ['version', 'string'],
  ['chainId', 'uint256'],
  ['verifyingContract', 'address'],
  ['salt', 'bytes32'],
]

const utf8 = new TextEncoder()

function word(v: bigint): Uint8Array {
  const hex = (v < 0n ? (1n << 256n) + v : v).toString(16).padStart(64, '0')
  return Buffer.from(hex, 'hex')
}

function bytesOf(v: unknown): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new InvalidParamsError(`invalid bytes value ${String(v).slice(0, 40)}`)
  return Buffer.from(v.slice(2), 'hex')
}

/** The struct types `type` depends on, itself first, then the rest sorted by name (EIP-712 encodeType). */
function dependencies(types: TypedData['types'], type: string, found = new Set<string>()): Set<string> {
  const base = type.replace(/\[\d*\]$/, '')
  if (found.has(base) || types[base] === undefined) return found
  found.add(base)
  for (const f of types[base]!) dependencies(types, f.type, found)
  return found
}

function encodeType(types: TypedData['types'], type: string): string {
  const [primary, ...rest] = [...dependencies(types, type)]
  return [primary!, ...rest.sort()].map((t) => `${t}(${types[t]!.map((f) => `${f.type} ${f.name}`).join(',')})`).join('')
}

function encodeValue(types: TypedData['types'], type: string, value: unknown): Uint8Array {
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array !== null) {
    if (!Array.isArray(value)) throw new InvalidParamsError(`expected an array for ${type}`)
    return keccak256(Buffer.concat(value.map((v) => encodeValue(types, array[1]!, v))))
  }
  if (types[type] !== undefined) return hashStruct(types, type, value as Record<string, unknown>)
  if (type === 'string') return keccak256(utf8.encode(String(value)))
  if (type === 'bytes') return keccak256(bytesOf(value))
  if (type === 'bool') return word(value === true || value === 'true' ? 1n : 0n)
  if (type === 'address') {
    if (bytesOf(value).length !== 20) throw new InvalidParamsError(`invalid address ${String(value).slice(0, 50)}`)
    return word(BigInt(value as string))
  }
  if (/^u?int\d*$/.test(type)) return word(BigInt(value as string | number))
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed !== null) {
    const b = bytesOf(value)
    const out = new Uint8Array(32)
    out.set(b.subarray(0, Number(fixed[1])))
    return out
  }
  throw new InvalidParamsError(`unknown EIP-712 type ${type}`)
}

function hashStruct(types: TypedData['types'], type: string, data: Record<string, unknown>): Uint8Array {
  const fields = types[type]!.map((f) => encodeValue(types, f.type, data[f.name]))
  return keccak256(Buffer.concat([keccak256(utf8.encode(encodeType(types, type))), ...fields]))
}

/** The digest a wallet signs for typed data (EIP-712). */
export function typedDataDigest(data: TypedData): Uint8Array {
  if (data.types[data.primaryType] === undefined) throw new InvalidParamsError(`primary type ${data.primaryType} is not defined`)
  const domainType = data.types.EIP712Domain ?? DOMAIN_FIELDS.filter(([n]) => data.domain[n] !== undefined).map(([name, type]) => ({ name, type }))
  const types = { ...data.types, EIP712Domain: domainType }
  const separator = hashStruct(types, 'EIP712Domain', data.domain)
  return keccak256(Buffer.concat([Uint8Array.of(0x19, 0x01), separator, hashStruct(types, data.primaryType, data.message)]))
}
