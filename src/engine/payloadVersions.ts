import type { ChainSpec } from '../chain/spec.js'
import type { PayloadData } from './worker/payloadBlock.js'
import type { ExecutionPayload, PayloadAttributesAny } from '../wire/engineParams.js'
import { EngineError } from './errors.js'

// Which Engine API method version serves which fork, and which payload and attribute members each version requires
// or forbids (execution-apis src/engine: paris, shanghai, cancun, prague, osaka). One place for every such rule.

export type NewPayloadVersion = 1 | 2 | 3 | 4
export type ForkchoiceVersion = 1 | 2 | 3
export type GetPayloadVersion = 1 | 2 | 3 | 4 | 5

/** The era of a timestamp that decides the method versions: the payload structure's generations. */
type Era = 'paris' | 'shanghai' | 'cancun' | 'prague' | 'osaka'

function eraAt(spec: ChainSpec, number: bigint, timestamp: bigint): Era {
  if (spec.isActive('osaka', number, timestamp)) return 'osaka'
  if (spec.isActive('prague', number, timestamp)) return 'prague'
  if (spec.isActive('cancun', number, timestamp)) return 'cancun'
  if (spec.isActive('shanghai', number, timestamp)) return 'shanghai'
  return 'paris'
}

const params = (why: string) => new EngineError('invalidParams', why)
const attributes = (why: string) => new EngineError('invalidPayloadAttributes', why)
const unsupported = () => new EngineError('unsupportedFork', 'Unsupported fork')

/**
 * engine_newPayloadV1…V4: the payload's members must be those of the version (-32602 otherwise, checked first, as
 * geth does) and its timestamp in the version's forks (-38005): V1 Paris, V2 Paris and Shanghai (withdrawals from
 * Shanghai on), V3 Cancun, V4 Prague and later.
 */
export function checkNewPayload(spec: ChainSpec, version: NewPayloadVersion, p: ExecutionPayload): PayloadData {
  const era = eraAt(spec, BigInt(p.blockNumber), BigInt(p.timestamp))
  const hasWithdrawals = p.withdrawals !== undefined && p.withdrawals !== null
  const hasBlobGas = (p.blobGasUsed ?? null) !== null || (p.excessBlobGas ?? null) !== null
  const bothBlobGas = (p.blobGasUsed ?? null) !== null && (p.excessBlobGas ?? null) !== null
  switch (version) {
    case 1:
      if (hasWithdrawals) throw params('withdrawals not supported in V1')
      if (hasBlobGas) throw params('blob gas fields not supported in V1')
      if (era !== 'paris') throw unsupported()
      break
    case 2:
      if (hasBlobGas) throw params('blob gas fields not supported in V2')
      if (era === 'shanghai' && !hasWithdrawals) throw params('nil withdrawals post-shanghai')
      if (era === 'paris' && hasWithdrawals) throw params('non-nil withdrawals pre-shanghai')
      if (era !== 'paris' && era !== 'shanghai') throw unsupported()
      break
    case 3:
    case 4:
      if (!hasWithdrawals) throw params('nil withdrawals post-shanghai')
      if (!bothBlobGas) throw params('nil blobGasUsed or excessBlobGas post-cancun')
      if (version === 3 ? era !== 'cancun' : era !== 'prague' && era !== 'osaka') throw unsupported()
      break
  }
  const { withdrawals, blobGasUsed, excessBlobGas, ...v1 } = p
  return {
    ...v1,
    ...(hasWithdrawals ? { withdrawals: withdrawals! } : {}),
    ...(bothBlobGas ? { blobGasUsed: blobGasUsed!, excessBlobGas: excessBlobGas! } : {}),
  }
}

/**
 * forkchoiceUpdatedV1…V3's payload attributes against the version and the fork of their timestamp: V1 Paris (no
 * withdrawals, no beacon root), V2 Paris or Shanghai (withdrawals exactly from Shanghai), V3 Cancun and later (both).
 * A structure of the wrong version is -38003 (V1: -32602, as geth), a timestamp of the wrong fork -38005.
 */
export function checkAttributes(spec: ChainSpec, version: ForkchoiceVersion, number: bigint, a: PayloadAttributesAny): void {
  const era = eraAt(spec, number, BigInt(a.timestamp))
  const hasWithdrawals = a.withdrawals !== undefined && a.withdrawals !== null
  const hasRoot = a.parentBeaconBlockRoot !== undefined && a.parentBeaconBlockRoot !== null
  switch (version) {
    case 1:
      if (hasWithdrawals || hasRoot) throw params('withdrawals and beacon root not supported in V1')
      if (era !== 'paris') throw unsupported()
      return
    case 2:
      if (hasRoot) throw attributes('unexpected beacon root')
      if (era === 'paris' && hasWithdrawals) throw attributes('withdrawals before shanghai')
      if (era === 'shanghai' && !hasWithdrawals) throw attributes('missing withdrawals')
      if (era !== 'paris' && era !== 'shanghai') throw unsupported()
      return
    case 3:
      if (!hasWithdrawals) throw attributes('missing withdrawals')
      if (!hasRoot) throw attributes('missing beacon root')
      if (era === 'paris' || era === 'shanghai') throw unsupported()
  }
}

/**
 * engine_getPayloadV1…V5: which forkchoiceUpdated versions' builds each may return, and for which forks. V1 and V2
 * serve builds of fcuV1/V2, V3–V5 those of fcuV3; V2 Paris/Shanghai, V3 Cancun, V4 Prague, V5 Osaka and later.
 */
export function getPayloadFits(spec: ChainSpec, version: GetPayloadVersion, builtBy: ForkchoiceVersion, number: bigint, timestamp: bigint): boolean {
  const era = eraAt(spec, number, timestamp)
  switch (version) {
    case 1:
      return builtBy === 1 && era === 'paris'
    case 2:
      return builtBy <= 2 && (era === 'paris' || era === 'shanghai')
    case 3:
      return builtBy === 3 && era === 'cancun'
    case 4:
      return builtBy === 3 && era === 'prague'
    case 5:
      return builtBy === 3 && era === 'osaka'
  }
}

/** The payload members of a block's fork: withdrawals from Shanghai on, blob gas from Cancun on. */
export function payloadOfFork(spec: ChainSpec, payload: Record<string, unknown>, number: bigint, timestamp: bigint): Record<string, unknown> {
  const era = eraAt(spec, number, timestamp)
  const { withdrawals, blobGasUsed, excessBlobGas, ...v1 } = payload
  if (era === 'paris') return v1
  if (era === 'shanghai') return { ...v1, withdrawals }
  return { ...v1, withdrawals, blobGasUsed, excessBlobGas }
}
