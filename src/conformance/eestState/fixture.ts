import { secp256k1 } from '@noble/curves/secp256k1.js'
import typia from 'typia'
import { type Fork, forkByName, Fork as Forks } from '../../chain/evmFork.js'
import { keccak256 } from '../../crypto/keccak.js'
import { blobBaseFee } from '../../fees/feeMath.js'
import type { PlainAccount, PlainState } from '../../state/accountsRoot.js'
import { signRawTx } from '../../testing/rawTx.js'
import { type Hex, bytesToHex, hexToBytes } from '../../util/hex.js'
import type { AccessListEntry, Address, Authorization, StateTestEnv, StateTestInput, StateTestTx } from './types.js'

// The execution-spec-tests state test format (test/fixtures/eest-state/README.md): a file is an object of named tests,
// each with its env, config, pre-state, one transaction with lists where it varies, and per fork the post entries —
// the cases. Here the JSON is checked (typia) and a case turned into the executor's plain values.
//
// The legacy tests (ethereum/legacytests, filled by retesteth for Frontier to Cancun) are the same format less a few
// members, read here too: no `config` (chain id 1, and Cancun's mainnet blob schedule), no post `state` (the root
// alone is checked), and in the older snapshots no `sender` and no `txbytes` (the transaction is signed here with
// its `secretKey`, without replay protection, as they were filled) and no `expectException` (an invalid transaction's
// post root is the pre-state's).

export interface FixtureAccount {
  nonce: string
  balance: string
  code: string
  storage: Record<string, string>
}

export interface FixtureEnv {
  currentCoinbase: string
  currentGasLimit: string
  currentNumber: string
  currentTimestamp: string
  currentRandom?: string
  currentDifficulty: string
  currentBaseFee?: string
  currentExcessBlobGas?: string
}

export interface FixtureBlobParams {
  target: string
  max: string
  baseFeeUpdateFraction: string
}

export interface FixtureAccessListEntry {
  address: string
  storageKeys: string[]
}

export interface FixtureAuthorization {
  chainId: string
  address: string
  nonce: string
  v: string
  r: string
  s: string
  yParity?: string
  signer?: string
}

export interface FixtureTransaction {
  nonce: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  gasLimit: string[]
  /** Empty for a contract creation. */
  to: string
  value: string[]
  data: string[]
  accessLists?: (FixtureAccessListEntry[] | null)[]
  maxFeePerBlobGas?: string
  blobVersionedHashes?: string[]
  authorizationList?: FixtureAuthorization[]
  /** Absent in the older legacy tests: the signer of `secretKey`. */
  sender?: string
  secretKey?: string
}

export interface FixturePost {
  hash: string
  logs: string
  /** Absent in the older legacy tests: the transaction is signed from its `secretKey`. */
  txbytes?: string
  indexes: { data: number; gas: number; value: number }
  expectException?: string
  /** Absent in the legacy tests. */
  state?: Record<string, FixtureAccount>
}

export interface FixtureTest {
  env: FixtureEnv
  /** Absent in the legacy tests. */
  config?: { chainid: string; blobSchedule?: Record<string, FixtureBlobParams> }
  pre: Record<string, FixtureAccount>
  transaction: FixtureTransaction
  post: Record<string, FixturePost[]>
}

export type FixtureFile = Record<string, FixtureTest>

const assertFixtureFile = typia.createAssert<FixtureFile>()

/** A file's JSON text, checked against the format; a mismatch throws naming the path inside the file. */
export function parseFixtureFile(text: string): FixtureFile {
  return assertFixtureFile(JSON.parse(text))
}

/** Which case of a file: a test, a fork of its post, and the entry's position in that fork's list. */
export interface CaseKey {
  /** The file's path relative to the fixtures' root, with `/`. */
  file: string
  test: string
  fork: string
  index: number
}

/** A test's name without the filler's path: `test_x[fork_Cancun-state_test]` of `tests/…/test_x.py::test_x[…]`. */
export function shortName(test: string): string {
  const at = test.lastIndexOf('::')
  return at < 0 ? test : test.slice(at + 2)
}

/** The case as the runner prints it: `<file>::<short test name> <fork>/<post entry>`. */
export function caseId(key: CaseKey): string {
  return `${key.file}::${shortName(key.test)} ${key.fork}/${key.index}`
}

/** What the fixture says the case must come to. */
export interface Expectation {
  stateRoot: Uint8Array
  logsHash: Uint8Array
  /** Present: the transaction is invalid (the fixture's exception names, `|`-separated alternatives). */
  exception: string | undefined
  /**
   * The pre-state, for a fixture that marks no exceptions (the older legacy tests): a transaction refused there is
   * expected when the post root is this state's. Undefined for fixtures that mark them.
   */
  preIfUnmarked?: PlainState | undefined
  /** The post accounts the fixture lists, for naming what differs (undefined: it lists none, as the legacy tests). */
  state: PlainState | undefined
}

export interface StateTestCase {
  key: CaseKey
  input: StateTestInput
  expect: Expectation
}

/** A fixture that cannot be turned into a case (an unknown fork, a missing field): the case fails naming it. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError'
}

/** A number of the fixture; the legacy tests write one too large for its field (to be refused) as `0x:bigint 0x…`. */
const big = (v: string): bigint => BigInt(v.startsWith('0x:bigint ') ? v.slice(10) : v)
const address = (v: string): Address => {
  const a = v.toLowerCase()
  if (!/^0x[0-9a-f]{40}$/.test(a)) throw new FixtureError(`not an address: ${v}`)
  return a as Hex
}

function plainAccount(a: FixtureAccount): PlainAccount {
  const storage = new Map<bigint, bigint>()
  for (const [slot, value] of Object.entries(a.storage)) {
    const v = big(value)
    if (v !== 0n) storage.set(big(slot), v)
  }
  return { nonce: big(a.nonce), balance: big(a.balance), code: hexToBytes(a.code), storage }
}

export function plainState(accounts: Record<string, FixtureAccount>): PlainState {
  const state = new Map<Hex, PlainAccount>()
  for (const [a, account] of Object.entries(accounts)) state.set(address(a), plainAccount(account))
  return state
}

/** A fixture fork name as Sponge's EVM fork: Frontier … Osaka (EIP150, EIP158, ConstantinopleFix), the BPO forks as Osaka. */
export function forkOf(name: string): Fork {
  const fork = forkByName(name) ?? forkByName(name.toLowerCase())
  if (fork === undefined) throw new FixtureError(`fork ${name} is not one this runner executes (Frontier to Osaka, BPO)`)
  return fork
}

/** Cancun's mainnet blob schedule (EIP-4844), for the legacy tests, which carry none. */
const CANCUN_BLOBS: FixtureBlobParams = { target: '0x03', max: '0x06', baseFeeUpdateFraction: '0x32f0ed' }

/** A 32-byte word from a hex value of up to 32 bytes (currentRandom may come unpadded). */
function word32(hex: string): Uint8Array {
  const v = big(hex)
  if (v >= 1n << 256n) throw new FixtureError(`more than 32 bytes: ${hex}`)
  return hexToBytes(`0x${v.toString(16).padStart(64, '0')}`)
}

export function envOf(test: FixtureTest, forkName: string, fork: Fork): StateTestEnv {
  const e = test.env
  let blob: StateTestEnv['blob']
  if (fork >= Forks.cancun) {
    const schedule = test.config === undefined && fork === Forks.cancun ? CANCUN_BLOBS : test.config?.blobSchedule?.[forkName]
    if (schedule === undefined) throw new FixtureError(`config.blobSchedule has no entry for ${forkName}`)
    const excessBlobGas = big(e.currentExcessBlobGas ?? '0x0')
    const fraction = big(schedule.baseFeeUpdateFraction)
    blob = {
      excessBlobGas,
      baseFee: blobBaseFee(excessBlobGas, fraction),
      target: Number(big(schedule.target)),
      max: Number(big(schedule.max)),
      baseFeeUpdateFraction: Number(fraction),
    }
  }
  if (fork >= Forks.london && e.currentBaseFee === undefined) throw new FixtureError(`env has no currentBaseFee for ${forkName}`)
  if (fork >= Forks.paris && e.currentRandom === undefined) throw new FixtureError(`env has no currentRandom for ${forkName}`)
  return {
    chainId: big(test.config?.chainid ?? '0x01'),
    coinbase: address(e.currentCoinbase),
    number: big(e.currentNumber),
    timestamp: big(e.currentTimestamp),
    gasLimit: big(e.currentGasLimit),
    prevRandao: fork >= Forks.paris ? word32(e.currentRandom!) : new Uint8Array(32),
    difficulty: fork >= Forks.paris ? 0n : big(e.currentDifficulty),
    baseFee: fork >= Forks.london ? big(e.currentBaseFee!) : undefined,
    blob,
  }
}

/**
 * The EIP-2718 type the transaction's fields make (as the test fillers choose it) for the variant of data index
 * `data`: the legacy tests give some variants a null access list, which makes them legacy transactions.
 */
function typeOf(t: FixtureTransaction, data: number): StateTestTx['type'] {
  if (t.authorizationList !== undefined) return 4
  if (t.blobVersionedHashes !== undefined) return 3
  if (t.maxFeePerGas !== undefined) return 2
  if (t.accessLists !== undefined && t.accessLists[data] !== null) return 1
  return 0
}

function pick<T>(list: readonly T[], i: number, what: string): T {
  if (i < 0 || i >= list.length) throw new FixtureError(`indexes.${what} ${i} is outside the transaction's ${list.length}`)
  return list[i]!
}

const senders = new Map<string, Address>()

/** The address of a secret key (32 bytes, hex): the signer of the older legacy tests' transactions. */
function senderOf(secretKey: string): Address {
  let a = senders.get(secretKey)
  if (a === undefined) {
    const pub = secp256k1.getPublicKey(hexToBytes(secretKey), false)
    a = bytesToHex(keccak256(pub.subarray(1)).subarray(12))
    senders.set(secretKey, a)
  }
  return a
}

/** The signed bytes of a legacy test's variant that gives none: signed with its secret key, no chain id. */
function signedLegacy(t: FixtureTransaction, post: FixturePost): Uint8Array {
  if (t.secretKey === undefined) throw new FixtureError('neither txbytes nor a secretKey to sign with')
  if (typeOf(t, post.indexes.data) !== 0) throw new FixtureError('no txbytes for a typed transaction')
  const raw = signRawTx(
    {
      type: 0,
      chainId: undefined,
      nonce: big(t.nonce),
      maxFee: big(t.gasPrice ?? '0x00'),
      gasLimit: big(pick(t.gasLimit, post.indexes.gas, 'gas')),
      to: t.to === '' ? undefined : t.to,
      value: big(pick(t.value, post.indexes.value, 'value')),
      data: hexToBytes(pick(t.data, post.indexes.data, 'data')),
    },
    hexToBytes(t.secretKey),
  )
  return hexToBytes(raw)
}

/** The transaction variant a post entry's indexes choose, with its signed bytes. */
export function txOf(t: FixtureTransaction, post: FixturePost): StateTestTx {
  const type = typeOf(t, post.indexes.data)
  const raw = post.txbytes === undefined ? signedLegacy(t, post) : hexToBytes(post.txbytes)
  const rawType = raw.length > 0 && raw[0]! <= 0x7f ? raw[0]! : 0
  if (rawType !== type) throw new FixtureError(`txbytes are of type ${rawType}, the transaction's fields make type ${type}`)
  if (t.sender === undefined && t.secretKey === undefined) throw new FixtureError('neither a sender nor a secretKey')
  const accessList: AccessListEntry[] = []
  if (t.accessLists !== undefined) {
    for (const entry of pick(t.accessLists, post.indexes.data, 'data') ?? []) {
      accessList.push({ address: address(entry.address), storageKeys: entry.storageKeys.map(big) })
    }
  }
  const authorizationList: Authorization[] = (t.authorizationList ?? []).map((a) => ({
    chainId: big(a.chainId),
    address: address(a.address),
    nonce: big(a.nonce),
    yParity: big(a.yParity ?? a.v),
    r: big(a.r),
    s: big(a.s),
    signer: a.signer === undefined ? undefined : address(a.signer),
  }))
  const opt = (v: string | undefined) => (v === undefined ? undefined : big(v))
  return {
    type,
    sender: t.sender === undefined ? senderOf(t.secretKey!) : address(t.sender),
    nonce: big(t.nonce),
    gasLimit: big(pick(t.gasLimit, post.indexes.gas, 'gas')),
    to: t.to === '' ? undefined : address(t.to),
    value: big(pick(t.value, post.indexes.value, 'value')),
    data: hexToBytes(pick(t.data, post.indexes.data, 'data')),
    gasPrice: type <= 1 ? opt(t.gasPrice) : undefined,
    maxFeePerGas: type >= 2 ? opt(t.maxFeePerGas) : undefined,
    maxPriorityFeePerGas: type >= 2 ? opt(t.maxPriorityFeePerGas) : undefined,
    accessList,
    maxFeePerBlobGas: opt(t.maxFeePerBlobGas),
    blobVersionedHashes: (t.blobVersionedHashes ?? []).map(hexToBytes),
    authorizationList,
    raw,
  }
}

/** Whether a test marks its invalid transactions (`expectException`): the older legacy tests, without txbytes, do not. */
function marksExceptions(test: FixtureTest): boolean {
  for (const posts of Object.values(test.post)) for (const p of posts) if (p.txbytes === undefined) return false
  return true
}

/** One case of a parsed file: the executor's input and the fixture's verdict. Throws FixtureError when malformed. */
export function buildCase(file: FixtureFile, key: CaseKey): StateTestCase {
  const test = file[key.test]
  if (test === undefined) throw new FixtureError(`no test named ${key.test}`)
  const post = test.post[key.fork]?.[key.index]
  if (post === undefined) throw new FixtureError(`no post entry ${key.fork}/${key.index}`)
  const fork = forkOf(key.fork)
  return {
    key,
    input: { fork, forkName: key.fork, env: envOf(test, key.fork, fork), pre: plainState(test.pre), tx: txOf(test.transaction, post) },
    expect: {
      stateRoot: hexToBytes(post.hash),
      logsHash: hexToBytes(post.logs),
      exception: post.expectException,
      preIfUnmarked: marksExceptions(test) ? undefined : plainState(test.pre),
      state: post.state === undefined ? undefined : plainState(post.state),
    },
  }
}
