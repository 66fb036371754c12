import type { Common } from '@ethereumjs/common'
import { type TypedTransaction, createTx } from '@ethereumjs/tx'
import { bytesToHex } from '../util/hex.js'
import { TxRejectedError } from '../exec/errors.js'
import { txRejectionOf } from '../exec/ethereumjsErrors.js'
import type { AccessListEntry, CallRequest } from './callInput.js'

/**
 * geth refuses a call whose fields need a fork the call's block does not have (the type field itself is ignored):
 * 1559 fee fields before London, an access list before Berlin, blob fields before Cancun, authorizations before
 * Prague — with its messages, as -32000.
 */
function checkFieldsActive(c: CallRequest, common: Common): void {
  if ((c.maxFeePerGas !== undefined || c.maxPriorityFeePerGas !== undefined) && !common.isActivatedEIP(1559)) {
    throw new TxRejectedError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active', 'txTypeNotSupported')
  }
  if (c.authorizationList !== undefined && !common.isActivatedEIP(7702))
    throw new TxRejectedError('transaction type not supported: setcode tx', 'txTypeNotSupported')
  if ((c.blobVersionedHashes !== undefined || c.maxFeePerBlobGas !== undefined) && !common.isActivatedEIP(4844)) {
    throw new TxRejectedError('transaction type not supported: blob tx', 'txTypeNotSupported')
  }
  if (c.accessList !== undefined && !common.isActivatedEIP(2930))
    throw new TxRejectedError('transaction type not supported: access list tx', 'txTypeNotSupported')
}

/**
 * The unsigned transaction a call object describes (its type from the fields given, as geth's ToTransaction), with
 * the nonce given (calls do not check it). Unfrozen: a caller sets its sender, having no signature to recover.
 * Fields EthereumJS refuses (an oversized init code, …) throw TxRejectedError.
 */
export function callTransaction(
  c: CallRequest,
  common: Common,
  gasLimit: bigint,
  accessList: AccessListEntry[] | undefined,
  nonce = 0n,
): TypedTransaction {
  checkFieldsActive(c, common)
  try {
    return createCallTransaction(c, common, gasLimit, accessList, nonce)
  } catch (e) {
    throw txRejectionOf(e) ?? e
  }
}

function createCallTransaction(
  c: CallRequest,
  common: Common,
  gasLimit: bigint,
  accessList: AccessListEntry[] | undefined,
  nonce: bigint,
): TypedTransaction {
  const list = accessList ?? c.accessList?.map((a) => ({ address: bytesToHex(a.address), storageKeys: a.storageKeys.map((k) => bytesToHex(k)) }))
  const base = {
    nonce,
    gasLimit,
    value: c.value ?? 0n,
    data: c.data ?? new Uint8Array(),
    ...(c.to === undefined ? {} : { to: c.to }),
  }
  if (c.authorizationList !== undefined) {
    return createTx(
      {
        type: 4,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? c.gasPrice ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? c.gasPrice ?? 0n,
        accessList: list ?? [],
        authorizationList: c.authorizationList.map((a) => ({
          chainId: `0x${a.chainId.toString(16)}`,
          address: bytesToHex(a.address),
          nonce: `0x${a.nonce.toString(16)}`,
          yParity: `0x${a.yParity.toString(16)}`,
          r: `0x${a.r.toString(16)}`,
          s: `0x${a.s.toString(16)}`,
        })),
      } as never,
      { common, freeze: false },
    )
  }
  if (c.blobVersionedHashes !== undefined) {
    return createTx(
      {
        type: 3,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? c.gasPrice ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? 0n,
        maxFeePerBlobGas: c.maxFeePerBlobGas ?? 0n,
        blobVersionedHashes: c.blobVersionedHashes.map((h) => bytesToHex(h)),
        accessList: list ?? [],
      } as never,
      { common, freeze: false },
    )
  }
  if (c.gasPrice === undefined && common.isActivatedEIP(1559)) {
    return createTx(
      {
        type: 2,
        ...base,
        maxFeePerGas: c.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? c.maxFeePerGas ?? 0n,
        accessList: list ?? [],
      } as never,
      { common, freeze: false },
    )
  }
  if (list !== undefined && common.isActivatedEIP(2930)) {
    return createTx({ type: 1, ...base, gasPrice: c.gasPrice ?? 0n, accessList: list } as never, { common, freeze: false })
  }
  return createTx({ type: 0, ...base, gasPrice: c.gasPrice ?? 0n } as never, { common, freeze: false })
}
