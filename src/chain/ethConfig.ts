import { crc32 } from 'node:zlib'
import { bytesToHex, toQuantity } from '../util/hex.js'
import { FORK_INDEX, type ForkName, type ScheduledFork } from './forks.js'
import type { ChainSpec } from './spec.js'
import { SYSTEM_CONTRACTS } from './systemContracts.js'

/** EIP-7910 fork configuration. */
export interface ForkConfig {
  activationTime: number
  blobSchedule: { baseFeeUpdateFraction: number; max: number; target: number } | null
  chainId: string
  forkId: string
  precompiles: Record<string, string>
  systemContracts: Record<string, string>
}

export interface EthConfig {
  current: ForkConfig
  next: ForkConfig | null
  last: ForkConfig | null
}

const PRECOMPILES: readonly [name: string, address: number, since: ForkName | 'frontier'][] = [
  ['ECREC', 0x01, 'frontier'],
  ['SHA256', 0x02, 'frontier'],
  ['RIPEMD160', 0x03, 'frontier'],
  ['ID', 0x04, 'frontier'],
  ['MODEXP', 0x05, 'byzantium'],
  ['BN254_ADD', 0x06, 'byzantium'],
  ['BN254_MUL', 0x07, 'byzantium'],
  ['BN254_PAIRING', 0x08, 'byzantium'],
  ['BLAKE2F', 0x09, 'istanbul'],
  ['KZG_POINT_EVALUATION', 0x0a, 'cancun'],
  ['BLS12_G1ADD', 0x0b, 'prague'],
  ['BLS12_G1MSM', 0x0c, 'prague'],
  ['BLS12_G2ADD', 0x0d, 'prague'],
  ['BLS12_G2MSM', 0x0e, 'prague'],
  ['BLS12_PAIRING_CHECK', 0x0f, 'prague'],
  ['BLS12_MAP_FP_TO_G1', 0x10, 'prague'],
  ['BLS12_MAP_FP2_TO_G2', 0x11, 'prague'],
  ['P256VERIFY', 0x100, 'osaka'],
]

const SYSTEM_CONTRACT_FORK: Record<string, ForkName> = {
  BEACON_ROOTS_ADDRESS: 'cancun',
  HISTORY_STORAGE_ADDRESS: 'prague',
  WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS: 'prague',
  CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS: 'prague',
}

const atLeast = (fork: ForkName | 'frontier', since: ForkName | 'frontier'): boolean =>
  since === 'frontier' || (fork !== 'frontier' && FORK_INDEX[fork] >= FORK_INDEX[since])

/** EIP-2124/EIP-6122 FORK_HASH: CRC32 of the genesis hash and every fork activated after genesis up to `time`. */
export function forkHash(spec: ChainSpec, genesisHash: Uint8Array, time: bigint): string {
  let crc = crc32(genesisHash)
  let previous = -1n
  for (const f of spec.forks) {
    if (f.by === 'time' && f.at > time) break
    const genesisActive = f.by === 'block' ? f.at === 0n : f.at <= spec.genesisTime
    if (genesisActive || f.at === previous) continue
    const buf = Buffer.alloc(8)
    buf.writeBigUInt64BE(f.at)
    crc = crc32(buf, crc)
    previous = f.at
  }
  return `0x${crc.toString(16).padStart(8, '0')}`
}

function forkConfig(spec: ChainSpec, genesisHash: Uint8Array, fork: ScheduledFork | undefined): ForkConfig {
  const time = fork?.by === 'time' ? fork.at : spec.genesisTime
  const name = fork?.name ?? spec.forkAt(0n, spec.genesisTime)
  const precompiles: Record<string, string> = {}
  for (const [pname, address, since] of PRECOMPILES) {
    if (atLeast(name, since)) precompiles[pname] = `0x${address.toString(16).padStart(40, '0')}`
  }
  const systemContracts: Record<string, string> = {}
  for (const c of SYSTEM_CONTRACTS) {
    const since = SYSTEM_CONTRACT_FORK[c.name]
    if (since !== undefined && atLeast(name, since)) systemContracts[c.name] = c.address
  }
  // Like geth: listed from Prague on, the zero address when the genesis names none.
  if (atLeast(name, 'prague')) systemContracts.DEPOSIT_CONTRACT_ADDRESS = bytesToHex(spec.depositContract ?? new Uint8Array(20))
  const blob = spec.blobParamsAt(time)
  return {
    activationTime: time <= spec.genesisTime ? 0 : Number(time),
    blobSchedule: blob === undefined ? null : { baseFeeUpdateFraction: blob.baseFeeUpdateFraction, max: blob.max, target: blob.target },
    chainId: toQuantity(spec.chainId),
    forkId: forkHash(spec, genesisHash, time),
    precompiles,
    systemContracts,
  }
}

/** eth_config at a head timestamp: the timestamp-scheduled fork in force, the next one, and the last one. */
export function ethConfig(spec: ChainSpec, genesisHash: Uint8Array, headTime: bigint): EthConfig {
  const timed = spec.forks.filter((f) => f.by === 'time')
  const active = timed.filter((f) => f.at <= headTime)
  const future = timed.filter((f) => f.at > headTime)
  const current = active[active.length - 1]
  return {
    current: forkConfig(spec, genesisHash, current),
    next: future.length > 0 ? forkConfig(spec, genesisHash, future[0]) : null,
    last: future.length > 0 ? forkConfig(spec, genesisHash, future[future.length - 1]) : null,
  }
}
