import { TxRejectedError } from './errors.js'
import type { SidecarProofs } from '../crypto/kzgSidecar.js'

// A transaction's bytes decoded as geth decodes them (core/types Transaction.UnmarshalBinary over rlp.DecodeBytes),
// with geth's messages for what does not decode: "rlp: non-canonical integer (leading zero bytes) for uint64,
// decoding into (types.DynamicFeeTx).Nonce", "rlp: too few elements for types.LegacyTx", "typed transaction too
// short", … The rules (txRules.ts) refuse in geth's order and words from these fields, and the block path
// (blockTx.ts) makes its transactions of them. Values are views of the input, never copies.

/** What the rules read of a transaction. */
export interface DecodedTx {
  readonly type: number
  /** A typed transaction's chain id; a replay-protected legacy one's, derived from v; undefined when unprotected. */
  readonly chainId: bigint | undefined
  /** EIP-155: every typed transaction, and a legacy one whose v is not 0, 1, 27 or 28 (geth's Protected()). */
  readonly protected: boolean
  readonly nonce: bigint
  readonly gasLimit: bigint
  /** gasPrice (types 0 and 1) or maxFeePerGas. */
  readonly feeCap: bigint
  /** gasPrice (types 0 and 1) or maxPriorityFeePerGas. */
  readonly tipCap: bigint
  /** Undefined for a contract creation. */
  readonly to: Uint8Array | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
  /** EIP-7702 authorizations. */
  readonly authorizations: number
  /** EIP-4844 blob hashes. */
  readonly blobHashes: number
  /** A blob transaction in its network wrapper: the sidecar's version (0 blob proofs, 1 cell proofs). */
  readonly sidecarVersion: number | undefined
  /** A blob transaction in its network wrapper: the sidecar, and the transaction's own encoding without it. */
  readonly wrapped?: WrappedBlobTx
}

/** A blob transaction's network wrapper taken apart (views into the bytes decoded). */
export interface WrappedBlobTx {
  /** The transaction as a block holds it: its type byte and its RLP list. */
  readonly canonical: Uint8Array
  readonly sidecar: SidecarProofs
}

// geth's rlp errors (rlp/decode.go): the stream's own, and the ones decoders wrap with the Go type they decode into.
const ELEM_TOO_LARGE = 'rlp: element is larger than containing list'
const VALUE_TOO_LARGE = 'rlp: value size exceeds available input length'
const MORE_THAN_ONE_VALUE = 'rlp: input contains more than one value'
const UINT256_LARGE = 'rlp: value too large for uint256'

/** A stream error that decoders wrap with their type (wrapStreamError), or leave as its own message. */
type StreamCode = 'canonInt' | 'canonSize' | 'expectedList' | 'expectedString' | 'uintOverflow' | 'notAtEol'
const STREAM_MESSAGE: Record<StreamCode, string> = {
  canonInt: 'rlp: non-canonical integer format',
  canonSize: 'rlp: non-canonical size information',
  expectedList: 'rlp: expected List',
  expectedString: 'rlp: expected String or Byte',
  uintOverflow: 'rlp: uint overflow',
  notAtEol: 'rlp: call of ListEnd not positioned at EOL',
}
const WRAPPED: Record<StreamCode, string> = {
  canonInt: 'non-canonical integer (leading zero bytes)',
  canonSize: 'non-canonical size information',
  expectedList: 'expected input list',
  expectedString: 'expected input string or byte',
  uintOverflow: 'input string too long',
  notAtEol: 'input list has too many elements',
}

class StreamError {
  constructor(readonly code: StreamCode) {}
}
/** geth's decodeError: "rlp: <msg> for <type>, decoding into <context>". */
class DecodeError {
  readonly ctx: string[] = []
  constructor(
    readonly msg: string,
    readonly typ: string,
  ) {}
}
/** An error with its own text (not wrapped, no context). */
class PlainError {
  constructor(readonly message: string) {}
}
/** The end of the current list (geth's EOL): a struct is short of fields, a slice is complete. */
const EOL = Symbol('rlp: end of list')

function wrap(e: unknown, typ: string): unknown {
  return e instanceof StreamError ? new DecodeError(WRAPPED[e.code], typ) : e
}

function withContext(e: unknown, ctx: string): unknown {
  if (e instanceof DecodeError) e.ctx.push(ctx)
  return e
}

function messageOf(e: unknown): string {
  if (e instanceof DecodeError) {
    const ctx = e.ctx.length === 0 ? '' : `, decoding into ${[...e.ctx].reverse().join('')}`
    return `rlp: ${e.msg} for ${e.typ}${ctx}`
  }
  if (e instanceof StreamError) return STREAM_MESSAGE[e.code]
  if (e instanceof PlainError) return e.message
  if (e === EOL) return 'rlp: end of list'
  throw e
}

interface Head {
  kind: 'byte' | 'string' | 'list'
  /** Content bytes (0 for a single byte). */
  size: number
  /** Where the content starts (for a single byte: the byte itself). */
  at: number
}

/** A big-endian integer: up to six bytes (nonces, gas, most fees) as a number first, longer ones through hex. */
function bigOf(b: Uint8Array): bigint {
  if (b.length > 6) return BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex')}`)
  let n = 0
  for (let i = 0; i < b.length; i++) n = n * 256 + b[i]!
  return BigInt(n)
}

/** geth's rlp.Stream over a byte slice: the input's and each open list's limits, and its errors where it meets them. */
class Stream {
  private pos = 0
  /** The end of each open list. */
  private readonly lists: number[] = []

  constructor(private readonly buf: Uint8Array) {}

  get atEnd(): boolean {
    return this.pos === this.buf.length
  }

  /** The next value's header (Kind): not consumed. */
  private head(): Head {
    const inList = this.lists.length > 0
    const limit = inList ? this.lists[this.lists.length - 1]! : this.buf.length
    if (inList && this.pos === limit) throw EOL
    if (this.pos >= limit) throw new PlainError('EOF')
    const tooLarge = () => new PlainError(inList ? ELEM_TOO_LARGE : VALUE_TOO_LARGE)
    const b = this.buf[this.pos]!
    let kind: Head['kind']
    let lenOfLen = 0
    let size: number
    if (b < 0x80) return { kind: 'byte', size: 0, at: this.pos }
    if (b < 0xb8) {
      kind = 'string'
      size = b - 0x80
    } else if (b < 0xc0) {
      kind = 'string'
      lenOfLen = b - 0xb7
      size = 0
    } else if (b < 0xf8) {
      kind = 'list'
      size = b - 0xc0
    } else {
      kind = 'list'
      lenOfLen = b - 0xf7
      size = 0
    }
    if (lenOfLen > 0) {
      if (this.pos + 1 + lenOfLen > limit) throw tooLarge()
      const sizeBytes = this.buf.subarray(this.pos + 1, this.pos + 1 + lenOfLen)
      if (lenOfLen > 1 && sizeBytes[0] === 0) throw new StreamError('canonSize')
      const big = bigOf(sizeBytes)
      if (big < 56n) throw new StreamError('canonSize')
      if (big > BigInt(limit)) throw tooLarge()
      size = Number(big)
    }
    const at = this.pos + 1 + lenOfLen
    if (size > limit - at) throw tooLarge()
    return { kind, size, at }
  }

  /** Enters a list (geth's List): its content size. */
  list(): number {
    const h = this.head()
    if (h.kind !== 'list') throw new StreamError('expectedList')
    this.lists.push(h.at + h.size)
    this.pos = h.at
    return h.size
  }

  /** Leaves the current list (ListEnd): it must be read to its end. */
  listEnd(): void {
    if (this.pos !== this.lists[this.lists.length - 1]) throw new StreamError('notAtEol')
    this.lists.pop()
  }

  /** An unsigned integer of at most `bits` bits (geth's Stream.uint). */
  uint(bits: number): bigint {
    const h = this.head()
    if (h.kind === 'byte') {
      const v = this.buf[h.at]!
      if (v === 0) throw new StreamError('canonInt')
      this.pos = h.at + 1
      return BigInt(v)
    }
    if (h.kind === 'list') throw new StreamError('expectedString')
    if (h.size > bits / 8) throw new StreamError('uintOverflow')
    const content = this.buf.subarray(h.at, h.at + h.size)
    this.pos = h.at + h.size
    if (h.size > 1 && content[0] === 0) throw new StreamError('canonInt')
    const v = bigOf(content)
    if (h.size > 0 && v < 128n) throw new StreamError('canonSize')
    return v
  }

  /** A big integer (geth's decodeBigInt; `max` bytes for uint256, whose larger values are their own error). */
  bigInt(max: number | undefined): bigint {
    const h = this.head()
    if (h.kind === 'list') throw new StreamError('expectedString')
    let content: Uint8Array
    if (h.kind === 'byte') {
      content = this.buf.subarray(h.at, h.at + 1)
      this.pos = h.at + 1
    } else {
      if (max !== undefined && h.size > max) throw new PlainError(UINT256_LARGE)
      content = this.buf.subarray(h.at, h.at + h.size)
      this.pos = h.at + h.size
      if (h.size === 1 && content[0]! < 128) throw new StreamError('canonSize')
    }
    if (content.length > 0 && content[0] === 0) throw new StreamError('canonInt')
    return bigOf(content)
  }

  /** A byte string (geth's Stream.Bytes). */
  bytes(): Uint8Array {
    const h = this.head()
    if (h.kind === 'byte') {
      this.pos = h.at + 1
      return this.buf.subarray(h.at, h.at + 1)
    }
    if (h.kind === 'list') throw new StreamError('expectedString')
    const content = this.buf.subarray(h.at, h.at + h.size)
    this.pos = h.at + h.size
    if (h.size === 1 && content[0]! < 128) throw new StreamError('canonSize')
    return content
  }

  /** A fixed-size byte array (geth's decodeByteArray): its header's errors are not wrapped, its size's are. */
  array(typ: string, length: number): Uint8Array {
    const h = this.head()
    if (h.kind === 'list') throw wrap(new StreamError('expectedString'), typ)
    if (h.kind === 'byte') {
      if (length === 0) throw new DecodeError('input string too long', typ)
      if (length > 1) throw new DecodeError('input string too short', typ)
      this.pos = h.at + 1
      return this.buf.subarray(h.at, h.at + 1)
    }
    if (h.size > length) throw new DecodeError('input string too long', typ)
    if (h.size < length) throw new DecodeError('input string too short', typ)
    const content = this.buf.subarray(h.at, h.at + h.size)
    this.pos = h.at + h.size
    if (h.size === 1 && content[0]! < 128) throw wrap(new StreamError('canonSize'), typ)
    return content
  }

  /** An optional value (a `rlp:"nil"` pointer): an empty string is none. */
  emptyString(typ: string): boolean {
    let h: Head
    try {
      h = this.head()
    } catch (e) {
      throw wrap(e, typ)
    }
    if (h.kind === 'byte' || h.size !== 0) return false
    if (h.kind !== 'string') throw new DecodeError('wrong kind of empty value (got List, want String)', typ)
    this.pos = h.at
    return true
  }
}

/** A decoder of one Go type, by its name in geth's messages. */
interface Decoder<T> {
  readonly typ: string
  read(s: Stream): T
}

const uint = (typ: 'uint64' | 'uint8', bits: number): Decoder<bigint> => ({
  typ,
  read: (s) => {
    try {
      return s.uint(bits)
    } catch (e) {
      throw wrap(e, typ)
    }
  },
})
const U64 = uint('uint64', 64)
const U8 = uint('uint8', 8)

const bigInt = (typ: string, max: number | undefined): Decoder<bigint> => ({
  typ,
  read: (s) => {
    try {
      return s.bigInt(max)
    } catch (e) {
      throw wrap(e, typ)
    }
  },
})
const BIG = bigInt('*big.Int', undefined)
const U256 = bigInt('*uint256.Int', 32)
const U256_VALUE = bigInt('uint256.Int', 32)

const BYTES: Decoder<Uint8Array> = {
  typ: '[]uint8',
  read: (s) => {
    try {
      return s.bytes()
    } catch (e) {
      throw wrap(e, '[]uint8')
    }
  },
}

const array = (typ: string, length: number): Decoder<Uint8Array> => ({ typ, read: (s) => s.array(typ, length) })
const ADDRESS = array('common.Address', 20)
const HASH = array('common.Hash', 32)

/** `*common.Address` with geth's `rlp:"nil"`: a creation's empty `to`. */
const OPTIONAL_ADDRESS: Decoder<Uint8Array | undefined> = {
  typ: '*common.Address',
  read: (s) => (s.emptyString('*common.Address') ? undefined : ADDRESS.read(s)),
}

function slice<T>(typ: string, elem: Decoder<T>): Decoder<T[]> {
  return {
    typ,
    read: (s) => {
      try {
        s.list()
      } catch (e) {
        throw wrap(e, typ)
      }
      const out: T[] = []
      for (let i = 0; ; i++) {
        try {
          out.push(elem.read(s))
        } catch (e) {
          if (e === EOL) break
          throw withContext(e, `[${i}]`)
        }
      }
      s.listEnd()
      return out
    },
  }
}

type Fields = readonly (readonly [name: string, decoder: Decoder<unknown>])[]

function struct(typ: string, fields: Fields): Decoder<Record<string, unknown>> {
  return {
    typ,
    read: (s) => {
      try {
        s.list()
      } catch (e) {
        throw wrap(e, typ)
      }
      const out: Record<string, unknown> = {}
      for (const [name, decoder] of fields) {
        try {
          out[name] = decoder.read(s)
        } catch (e) {
          if (e === EOL) throw new DecodeError('too few elements', typ)
          throw withContext(e, `.${name}`)
        }
      }
      try {
        s.listEnd()
      } catch (e) {
        throw wrap(e, typ)
      }
      return out
    },
  }
}

const ACCESS_LIST = slice(
  'types.AccessList',
  struct('types.AccessTuple', [
    ['Address', ADDRESS],
    ['StorageKeys', slice('[]common.Hash', HASH)],
  ]),
)
const AUTH_LIST = slice(
  '[]types.SetCodeAuthorization',
  struct('types.SetCodeAuthorization', [
    ['ChainID', U256_VALUE],
    ['Address', ADDRESS],
    ['Nonce', U64],
    ['V', U8],
    ['R', U256_VALUE],
    ['S', U256_VALUE],
  ]),
)
const SIGNATURE_BIG: Fields = [
  ['V', BIG],
  ['R', BIG],
  ['S', BIG],
]
const SIGNATURE_U256: Fields = [
  ['V', U256],
  ['R', U256],
  ['S', U256],
]

const LEGACY = struct('types.LegacyTx', [
  ['Nonce', U64],
  ['GasPrice', BIG],
  ['Gas', U64],
  ['To', OPTIONAL_ADDRESS],
  ['Value', BIG],
  ['Data', BYTES],
  ...SIGNATURE_BIG,
])
const ACCESS_LIST_TX = struct('types.AccessListTx', [
  ['ChainID', BIG],
  ['Nonce', U64],
  ['GasPrice', BIG],
  ['Gas', U64],
  ['To', OPTIONAL_ADDRESS],
  ['Value', BIG],
  ['Data', BYTES],
  ['AccessList', ACCESS_LIST],
  ...SIGNATURE_BIG,
])
const DYNAMIC_FEE_TX = struct('types.DynamicFeeTx', [
  ['ChainID', BIG],
  ['Nonce', U64],
  ['GasTipCap', BIG],
  ['GasFeeCap', BIG],
  ['Gas', U64],
  ['To', OPTIONAL_ADDRESS],
  ['Value', BIG],
  ['Data', BYTES],
  ['AccessList', ACCESS_LIST],
  ...SIGNATURE_BIG,
])
const BLOB_TX = struct('types.BlobTx', [
  ['ChainID', U256],
  ['Nonce', U64],
  ['GasTipCap', U256],
  ['GasFeeCap', U256],
  ['Gas', U64],
  ['To', ADDRESS],
  ['Value', U256],
  ['Data', BYTES],
  ['AccessList', ACCESS_LIST],
  ['BlobFeeCap', U256],
  ['BlobHashes', slice('[]common.Hash', HASH)],
  ...SIGNATURE_U256,
])
const SET_CODE_TX = struct('types.SetCodeTx', [
  ['ChainID', U256],
  ['Nonce', U64],
  ['GasTipCap', U256],
  ['GasFeeCap', U256],
  ['Gas', U64],
  ['To', ADDRESS],
  ['Value', U256],
  ['Data', BYTES],
  ['AccessList', ACCESS_LIST],
  ['AuthList', AUTH_LIST],
  ...SIGNATURE_U256,
])
const SIDECAR: Fields = [
  ['Blobs', slice('[]kzg4844.Blob', array('kzg4844.Blob', 131072))],
  ['Commitments', slice('[]kzg4844.Commitment', array('kzg4844.Commitment', 48))],
  ['Proofs', slice('[]kzg4844.Proof', array('kzg4844.Proof', 48))],
]
const BLOB_TX_WITH_BLOBS_V0 = struct('types.blobTxWithBlobsV0', [['BlobTx', BLOB_TX], ...SIDECAR])
const BLOB_TX_WITH_BLOBS_V1 = struct('types.blobTxWithBlobsV1', [['BlobTx', BLOB_TX], ['Version', U8], ...SIDECAR])

/** geth's rlp.DecodeBytes: one value of the decoder's type, and nothing after it. */
function decodeBytes(input: Uint8Array, decoder: Decoder<Record<string, unknown>>): Record<string, unknown> {
  const s = new Stream(input)
  let out: Record<string, unknown>
  try {
    out = decoder.read(s)
  } catch (e) {
    if (e instanceof DecodeError && e.ctx.length > 0) e.ctx.push(`(${decoder.typ})`)
    throw e
  }
  if (!s.atEnd) throw new PlainError(MORE_THAN_ONE_VALUE)
  return out
}

/** geth's rlp.Split: the first value's kind and the bytes after it (its errors: readKind's). */
function split(b: Uint8Array): { kind: Head['kind']; content: Uint8Array; rest: Uint8Array } {
  if (b.length === 0) throw new PlainError('unexpected EOF')
  const first = b[0]!
  let kind: Head['kind']
  let tag: number
  let size: number
  const readSize = (lenOfLen: number): number => {
    if (lenOfLen > b.length - 1) throw new PlainError('unexpected EOF')
    const bytes = b.subarray(1, 1 + lenOfLen)
    const n = bigOf(bytes)
    if (n < 56n || bytes[0] === 0) throw new StreamError('canonSize')
    return n > BigInt(b.length) ? b.length + 1 : Number(n)
  }
  if (first < 0x80) {
    ;[kind, tag, size] = ['byte', 0, 1]
  } else if (first < 0xb8) {
    ;[kind, tag, size] = ['string', 1, first - 0x80]
    if (size === 1 && b.length > 1 && b[1]! < 128) throw new StreamError('canonSize')
  } else if (first < 0xc0) {
    ;[kind, tag, size] = ['string', first - 0xb7 + 1, readSize(first - 0xb7)]
  } else if (first < 0xf8) {
    ;[kind, tag, size] = ['list', 1, first - 0xc0]
  } else {
    ;[kind, tag, size] = ['list', first - 0xf7 + 1, readSize(first - 0xf7)]
  }
  if (size > b.length - tag) throw new PlainError(VALUE_TOO_LARGE)
  return { kind, content: b.subarray(tag, tag + size), rest: b.subarray(tag + size) }
}

/** A blob transaction's body: canonical, or in its network wrapper with a sidecar of version 0 or 1. */
function decodeBlobTx(body: Uint8Array): { tx: Record<string, unknown>; sidecarVersion: number | undefined; wrapped?: WrappedBlobTx } {
  const outer = split(body)
  if (outer.kind !== 'list') throw new StreamError('expectedList')
  const first = split(outer.content)
  if (first.kind !== 'list') return { tx: decodeBytes(body, BLOB_TX), sidecarVersion: undefined }
  const second = split(first.rest)
  const version = second.kind === 'list' ? 0 : 1
  const wrapper = decodeBytes(body, version === 0 ? BLOB_TX_WITH_BLOBS_V0 : BLOB_TX_WITH_BLOBS_V1)
  if (version === 1 && wrapper.Version !== 1n) throw new PlainError(`unsupported blob tx version ${wrapper.Version as bigint}`)
  const txList = outer.content.subarray(0, outer.content.length - first.rest.length)
  const canonical = new Uint8Array(1 + txList.length)
  canonical[0] = 3
  canonical.set(txList, 1)
  const sidecar = {
    version,
    blobs: wrapper.Blobs as Uint8Array[],
    commitments: wrapper.Commitments as Uint8Array[],
    proofs: wrapper.Proofs as Uint8Array[],
  }
  return { tx: wrapper.BlobTx as Record<string, unknown>, sidecarVersion: version, wrapped: { canonical, sidecar } }
}

/** geth's isProtectedV: v of 0, 1, 27 or 28 signs for every chain. */
export function protectedV(v: bigint): boolean {
  return v > 255n || (v !== 27n && v !== 28n && v !== 1n && v !== 0n)
}

/** geth's deriveChainId (a uint64 v below 35 wraps, as geth's does). */
export function legacyChainId(v: bigint): bigint {
  if (v === 27n || v === 28n) return 0n
  return v < 2n ** 64n ? BigInt.asUintN(64, v - 35n) / 2n : (v - 35n) / 2n
}

/** A transaction's fields by geth's names (Nonce, GasFeeCap, AccessList, …), as decoded: what the block path reads. */
export interface TxFields {
  readonly type: number
  readonly fields: Readonly<Record<string, unknown>>
  /** A blob transaction in its network wrapper: the sidecar's version (0 blob proofs, 1 cell proofs). */
  readonly sidecarVersion: number | undefined
  readonly wrapped: WrappedBlobTx | undefined
}

/** geth's errors as TxRejectedError: 'invalidTransaction' for bytes that do not decode. */
function rejecting<T>(decodeIt: () => T): T {
  try {
    return decodeIt()
  } catch (e) {
    if (e instanceof TxRejectedError) throw e
    throw new TxRejectedError(messageOf(e), 'invalidTransaction')
  }
}

/**
 * A transaction's bytes (a blob transaction canonical or in its network wrapper), decoded as geth decodes them.
 * Throws TxRejectedError with geth's message: 'invalidTransaction' for bytes that do not decode,
 * 'txTypeNotSupported' for an unknown type.
 */
export function decodeTx(raw: Uint8Array): DecodedTx {
  return decodedTxOf(rejecting(() => decodeFields(raw)))
}

/** decodeTx's fields themselves, by geth's names, for a reader that needs all of them (exec/blockTx.ts). */
export function decodeTxFields(raw: Uint8Array): TxFields {
  return rejecting(() => decodeFields(raw))
}

function decodeFields(raw: Uint8Array): TxFields {
  if (raw.length > 0 && raw[0]! > 0x7f) return { type: 0, fields: decodeBytes(raw, LEGACY), sidecarVersion: undefined, wrapped: undefined }
  if (raw.length <= 1) throw new PlainError('typed transaction too short')
  const type = raw[0]!
  const body = raw.subarray(1)
  switch (type) {
    case 1:
      return { type, fields: decodeBytes(body, ACCESS_LIST_TX), sidecarVersion: undefined, wrapped: undefined }
    case 2:
      return { type, fields: decodeBytes(body, DYNAMIC_FEE_TX), sidecarVersion: undefined, wrapped: undefined }
    case 3: {
      const { tx, sidecarVersion, wrapped } = decodeBlobTx(body)
      return { type, fields: tx, sidecarVersion, wrapped }
    }
    case 4:
      return { type, fields: decodeBytes(body, SET_CODE_TX), sidecarVersion: undefined, wrapped: undefined }
    default:
      throw new TxRejectedError('transaction type not supported', 'txTypeNotSupported')
  }
}

/** What the rules read of a transaction's decoded fields (decodeTx's result). */
export function decodedTxOf({ type, fields: f, sidecarVersion, wrapped }: TxFields): DecodedTx {
  if (type === 0) {
    const v = f.V as bigint
    const isProtected = protectedV(v)
    return {
      type: 0,
      chainId: isProtected ? legacyChainId(v) : undefined,
      protected: isProtected,
      nonce: f.Nonce as bigint,
      gasLimit: f.Gas as bigint,
      feeCap: f.GasPrice as bigint,
      tipCap: f.GasPrice as bigint,
      to: f.To as Uint8Array | undefined,
      value: f.Value as bigint,
      data: f.Data as Uint8Array,
      v,
      r: f.R as bigint,
      s: f.S as bigint,
      authorizations: 0,
      blobHashes: 0,
      sidecarVersion: undefined,
    }
  }
  const gasPrice = f.GasPrice as bigint | undefined
  return {
    type,
    chainId: f.ChainID as bigint,
    protected: true,
    nonce: f.Nonce as bigint,
    gasLimit: f.Gas as bigint,
    feeCap: gasPrice ?? (f.GasFeeCap as bigint),
    tipCap: gasPrice ?? (f.GasTipCap as bigint),
    to: f.To as Uint8Array | undefined,
    value: f.Value as bigint,
    data: f.Data as Uint8Array,
    v: f.V as bigint,
    r: f.R as bigint,
    s: f.S as bigint,
    authorizations: (f.AuthList as unknown[] | undefined)?.length ?? 0,
    blobHashes: (f.BlobHashes as unknown[] | undefined)?.length ?? 0,
    sidecarVersion,
    ...(wrapped === undefined ? {} : { wrapped }),
  }
}
