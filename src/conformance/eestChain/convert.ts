import { RLP } from '@ethereumjs/rlp'
import type { GethGenesisFile } from '../../chain/genesis.js'
import { keccak256 } from '../../crypto/keccak.js'
import { sha256 } from '../../crypto/sha256.js'
import { bytesToBigInt, bytesToHex, toQuantity } from '../../util/hex.js'
import type { Account, EngineCase, Expect, Step } from '../engineCase.js'
import { BLOCK_FORKS } from '../engineFixture.js'
import type { FixtureAccount, FixtureCase } from './fixture.js'

// A blockchain_test case as Engine API steps, by test/fixtures/conformance/eest/README.md's rules: the genesis from
// the case's config and pre-state, then per block engine_newPayload with the payload the block's RLP describes, each
// valid block made the head by forkchoiceUpdated, then the head and the post-state to read back.

/** Why a case is not run: its network, execution requests the payload cannot carry, or a valid block no payload holds. */
export type SkipKind = 'network' | 'needs-requests' | 'not-a-payload' | 'format'

export interface Converted {
  genesis: GethGenesisFile
  engineCase: EngineCase
  /** Invalid blocks left out: their RLP describes no payload (undecodable, or fields of the wrong width). */
  skippedBlocks: number
}

export type Conversion = ({ kind: 'case' } & Converted) | { kind: 'skip'; skip: SkipKind; why: string }

/** sha256 of no requests: the requestsHash of a block that carries none. */
const EMPTY_REQUESTS_HASH = bytesToHex(sha256(new Uint8Array(0)))

/** The forks a network may name, in order, with the genesis key that schedules each. Earlier forks are at genesis. */
const TIMED_FORKS: readonly [name: string, key: string][] = [
  ['Cancun', 'cancunTime'],
  ['Prague', 'pragueTime'],
  ['Osaka', 'osakaTime'],
  ['BPO1', 'bpo1Time'],
  ['BPO2', 'bpo2Time'],
  ['BPO3', 'bpo3Time'],
  ['BPO4', 'bpo4Time'],
  ['BPO5', 'bpo5Time'],
]
const TRANSITION_AT = 15_000

/** The genesis config's fork schedule of a network (`Osaka`, `PragueToOsakaAtTime15k`); undefined before Cancun. */
export function forkSchedule(network: string): Record<string, number> | undefined {
  const m = /^(\w+?)To(\w+)AtTime15k$/.exec(network)
  const from = m === null ? network : m[1]!
  const to = m === null ? undefined : m[2]!
  const i = TIMED_FORKS.findIndex(([name]) => name === from)
  const j = to === undefined ? i : TIMED_FORKS.findIndex(([name]) => name === to)
  if (i < 0 || j < i || (to !== undefined && j !== i + 1)) return undefined
  const config: Record<string, number> = { shanghaiTime: 0 }
  for (let k = 0; k <= i; k++) config[TIMED_FORKS[k]![1]] = 0
  if (to !== undefined) config[TIMED_FORKS[j]![1]] = TRANSITION_AT
  return config
}

/** A fixture's number ("0x00", "0x0186a0") as a JSON-RPC quantity. */
const quantity = (v: string) => toQuantity(BigInt(v))
/** A fixture's storage key or value ("0x22") as a 32-byte word. */
const word = (v: string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
const words = (storage: Record<string, string>) => Object.fromEntries(Object.entries(storage).map(([k, v]) => [word(k), word(v)]))

function genesisOf(c: FixtureCase, timed: Record<string, number>): GethGenesisFile {
  const h = c.genesisBlockHeader
  const config: GethGenesisFile['config'] = { chainId: Number(BigInt(c.config.chainid)) }
  for (const key of BLOCK_FORKS) config[key] = 0
  config.terminalTotalDifficulty = 0
  Object.assign(config, timed)
  config.depositContractAddress = '0x00000000219ab540356cbb839cbe05303d7705fa'
  const schedule: NonNullable<GethGenesisFile['config']['blobSchedule']> = {}
  for (const [fork, p] of Object.entries(c.config.blobSchedule ?? {})) {
    schedule[fork.toLowerCase()] = { target: Number(p.target), max: Number(p.max), baseFeeUpdateFraction: Number(p.baseFeeUpdateFraction) }
  }
  config.blobSchedule = schedule
  const alloc: GethGenesisFile['alloc'] = {}
  for (const [address, a] of Object.entries(c.pre)) {
    alloc[address] = {
      balance: quantity(a.balance),
      nonce: quantity(a.nonce),
      ...(a.code === '0x' ? {} : { code: a.code }),
      ...(Object.keys(a.storage).length === 0 ? {} : { storage: words(a.storage) }),
    }
  }
  return {
    config,
    nonce: quantity(h.nonce),
    timestamp: quantity(h.timestamp),
    gasLimit: quantity(h.gasLimit),
    difficulty: quantity(h.difficulty),
    number: quantity(h.number),
    gasUsed: '0x0',
    ...(h.baseFeePerGas === undefined ? {} : { baseFeePerGas: quantity(h.baseFeePerGas) }),
    ...(h.excessBlobGas === undefined ? {} : { excessBlobGas: quantity(h.excessBlobGas) }),
    ...(h.blobGasUsed === undefined ? {} : { blobGasUsed: quantity(h.blobGasUsed) }),
    extraData: h.extraData,
    mixHash: h.mixHash,
    coinbase: h.coinbase,
    parentHash: `0x${'00'.repeat(32)}`,
    ...(h.parentBeaconBlockRoot === undefined ? {} : { parentBeaconBlockRoot: h.parentBeaconBlockRoot }),
    ...(h.requestsHash === undefined ? {} : { requestsHash: h.requestsHash }),
    alloc,
  }
}

/** A block's RLP read as the payload it describes, or why it describes none. */
interface BlockPayload {
  payload: Record<string, unknown>
  versionedHashes: string[]
  parentBeaconBlockRoot: string
  timestamp: bigint
  requestsHash: string | undefined
}

type Item = Uint8Array | Item[]
const isBytes = (x: Item | undefined): x is Uint8Array => x instanceof Uint8Array
const isList = (x: Item | undefined): x is Item[] => Array.isArray(x)

class NotAPayload extends Error {}

function fixed(x: Item | undefined, size: number, what: string): string {
  if (!isBytes(x) || x.length !== size) throw new NotAPayload(`${what} is not ${size} bytes`)
  return bytesToHex(x)
}

function scalar(x: Item | undefined, what: string): bigint {
  if (!isBytes(x) || x.length > 32) throw new NotAPayload(`${what} is not a number`)
  return bytesToBigInt(x)
}

/** The blob versioned hashes of a type-3 transaction's encoding; none when it does not decode as one. */
function blobHashes(tx: Uint8Array): string[] {
  try {
    const fields = RLP.decode(tx.subarray(1)) as Item
    const hashes = isList(fields) ? fields[10] : undefined
    return isList(hashes) ? hashes.filter(isBytes).map(bytesToHex) : []
  } catch {
    return []
  }
}

function readBlock(rlp: string): BlockPayload {
  let block: Item
  try {
    block = RLP.decode(rlp) as Item
  } catch (e) {
    throw new NotAPayload(`RLP: ${(e as Error).message}`)
  }
  if (!isList(block) || block.length < 3) throw new NotAPayload('not a block: a list of header, transactions, uncles[, withdrawals]')
  const [header, txs, , withdrawals] = block
  if (!isList(header) || header.length < 20) throw new NotAPayload('header without the fields of a Cancun payload')
  if (!isList(txs)) throw new NotAPayload('transactions are not a list')
  if (!isList(withdrawals)) throw new NotAPayload('no withdrawals list')
  const transactions: string[] = []
  const versionedHashes: string[] = []
  for (const tx of txs) {
    // A typed transaction is a string of type || payload; a legacy one, its own list.
    const raw = isBytes(tx) ? tx : RLP.encode(tx)
    if (isBytes(tx) && tx[0] === 3) versionedHashes.push(...blobHashes(tx))
    transactions.push(bytesToHex(raw))
  }
  const payloadWithdrawals = withdrawals.map((w, i) => {
    if (!isList(w) || w.length !== 4) throw new NotAPayload(`withdrawal ${i} is not four fields`)
    return {
      index: toQuantity(scalar(w[0], 'withdrawal index')),
      validatorIndex: toQuantity(scalar(w[1], 'validator index')),
      address: fixed(w[2], 20, 'withdrawal address'),
      amount: toQuantity(scalar(w[3], 'withdrawal amount')),
    }
  })
  const timestamp = scalar(header[11], 'timestamp')
  const extraData = header[12]
  if (!isBytes(extraData)) throw new NotAPayload('extraData is not a string')
  const payload = {
    parentHash: fixed(header[0], 32, 'parentHash'),
    feeRecipient: fixed(header[2], 20, 'coinbase'),
    stateRoot: fixed(header[3], 32, 'stateRoot'),
    receiptsRoot: fixed(header[5], 32, 'receiptsRoot'),
    logsBloom: fixed(header[6], 256, 'logsBloom'),
    prevRandao: fixed(header[13], 32, 'mixHash'),
    blockNumber: toQuantity(scalar(header[8], 'number')),
    gasLimit: toQuantity(scalar(header[9], 'gasLimit')),
    gasUsed: toQuantity(scalar(header[10], 'gasUsed')),
    timestamp: toQuantity(timestamp),
    extraData: bytesToHex(extraData),
    baseFeePerGas: toQuantity(scalar(header[15], 'baseFeePerGas')),
    blockHash: bytesToHex(keccak256(RLP.encode(header))),
    transactions,
    withdrawals: payloadWithdrawals,
    blobGasUsed: toQuantity(scalar(header[17], 'blobGasUsed')),
    excessBlobGas: toQuantity(scalar(header[18], 'excessBlobGas')),
  }
  const requestsHash = header[20]
  return {
    payload,
    versionedHashes,
    parentBeaconBlockRoot: fixed(header[19], 32, 'parentBeaconBlockRoot'),
    timestamp,
    requestsHash: isBytes(requestsHash) ? bytesToHex(requestsHash) : undefined,
  }
}

/** -32602 besides INVALID, as the README allows, for blocks whose defect is in their requests or deposits. */
function invalidExpect(exception: string): Expect {
  return /INVALID_REQUESTS|DEPOSIT/.test(exception) ? ['INVALID', { errorCode: -32602 }] : 'INVALID'
}

const EMPTY_ACCOUNT: Account = { balance: '0x0', nonce: '0x0', code: '0x', storage: {} }

/**
 * Every account of the post-state, and every account of the pre-state it no longer holds (it must read empty); each
 * with its storage, slots cleared since the pre-state reading 0. Changed accounts first.
 */
function finalAccounts(pre: Record<string, FixtureAccount>, post: Record<string, FixtureAccount>): Record<string, Account> {
  const changed: [string, Account][] = []
  const same: [string, Account][] = []
  for (const [address, a] of Object.entries(post)) {
    const before = pre[address]
    const storage: Record<string, string> = {}
    for (const slot of Object.keys(before?.storage ?? {})) storage[word(slot)] = word('0x0')
    Object.assign(storage, words(a.storage))
    const account = { balance: quantity(a.balance), nonce: quantity(a.nonce), code: a.code, storage }
    const unchanged = before !== undefined && JSON.stringify(before) === JSON.stringify(a)
    ;(unchanged ? same : changed).push([address, account])
  }
  for (const address of Object.keys(pre)) if (!(address in post)) changed.push([address, EMPTY_ACCOUNT])
  return Object.fromEntries([...changed, ...same])
}

/** Converts one case; `id` names it (`<file>::<test name>`). */
export function convertCase(id: string, c: FixtureCase): Conversion {
  const timed = forkSchedule(c.network)
  if (timed === undefined) return { kind: 'skip', skip: 'network', why: c.network }
  if (c.postState === undefined) return { kind: 'skip', skip: 'format', why: 'no postState' }
  const genesis = genesisOf(c, timed)
  const genesisHash = c.genesisBlockHeader.hash
  const forkchoice = (head: string): Step => ({
    method: 'engine_forkchoiceUpdatedV3',
    params: [{ headBlockHash: head, safeBlockHash: genesisHash, finalizedBlockHash: genesisHash }, null],
    expect: 'VALID',
  })
  const steps: Step[] = [forkchoice(genesisHash)]
  const pragueAt = timed.pragueTime
  let skippedBlocks = 0
  for (const [i, block] of c.blocks.entries()) {
    let b: BlockPayload
    try {
      b = readBlock(block.rlp)
    } catch (e) {
      if (!(e instanceof NotAPayload)) throw e
      if (block.expectException === undefined) return { kind: 'skip', skip: 'not-a-payload', why: `block ${i}: ${e.message}` }
      skippedBlocks++
      continue
    }
    if (b.requestsHash !== undefined && b.requestsHash !== EMPTY_REQUESTS_HASH) {
      return { kind: 'skip', skip: 'needs-requests', why: `block ${i}: requestsHash ${b.requestsHash}` }
    }
    const prague = pragueAt !== undefined && b.timestamp >= BigInt(pragueAt)
    const params = [b.payload, b.versionedHashes, b.parentBeaconBlockRoot, ...(prague ? [[]] : [])]
    const method = prague ? 'engine_newPayloadV4' : 'engine_newPayloadV3'
    if (block.expectException === undefined) {
      steps.push({ method, params, expect: 'VALID' }, forkchoice(b.payload.blockHash as string))
    } else {
      steps.push({ method, params, expect: invalidExpect(block.expectException), exception: block.expectException })
    }
  }
  return {
    kind: 'case',
    genesis,
    skippedBlocks,
    engineCase: {
      id,
      network: c.network,
      chainId: quantity(c.config.chainid),
      genesisHash,
      steps,
      final: { lastblockhash: c.lastblockhash, accounts: finalAccounts(c.pre, c.postState) },
    },
  }
}
