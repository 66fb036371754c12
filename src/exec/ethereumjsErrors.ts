import { EthereumJSError } from '@ethereumjs/util'
import { TxRejectedError, type TxRejectionKind } from './errors.js'

// The one adapter from EthereumJS's refusals of a transaction (thrown as EthereumJSError with a message, no code) to
// the domain's TxRejectedError kinds, with geth's wording where EthereumJS's message carries what geth's needs. Each
// message recognised here is produced by running EthereumJS 10.1.3 in ethereumjsErrors.test.ts, so a release that
// rewords one fails that test rather than turning a client's mistake into another kind.

/**
 * The reason alone: runTx appends " (vm hf=… -> block … -> tx …)" to its messages, a transaction's constructor a dump
 * of the transaction, " (tx type=2 hash=0x… nonce=0 value=0 signed=true hf=osaka maxFeePerGas=…)".
 */
export function withoutDebugSuffix(message: string): string {
  return message
    .replace(/ \(vm hf=.*$/s, '')
    .replace(/ -> .*$/s, '')
    .replace(/ \(tx type=\d+ hash=.*\)$/s, '')
}

/** geth's ErrInvalidSig behind the pool's ErrInvalidSender. */
const INVALID_SIG = 'invalid sender: invalid transaction v, r, s values'

interface Rule {
  /** Matched against the message without its debug suffix. */
  pattern: RegExp
  kind: TxRejectionKind
  /** geth's message, from the match. */
  message: (m: RegExpExecArray) => string
}

const RULES: readonly Rule[] = [
  {
    // runTx: "sender doesn't have enough funds to send tx. The upfront cost is: 21000 and the sender's account (0x…)
    // only has: 0" (the max cost, for a blob transaction's own check).
    pattern:
      /^sender doesn't have enough funds to send tx\. The (?:upfront|max) cost is: (\d+) and the sender's account \((0x[0-9a-fA-F]{40})\) only has: (\d+)$/,
    kind: 'insufficientFunds',
    message: (m) => `insufficient funds for gas * price + value: address ${m[2]} have ${m[3]} want ${m[1]}`,
  },
  {
    // runTx, EIP-3607: the sender has code.
    pattern: /^invalid sender address, address is not EOA \(EIP-3607\)$/,
    kind: 'senderNotEoa',
    message: () => 'sender not an eoa',
  },
  {
    // The transaction's constructor, EIP-3860.
    pattern: /^the initcode size of this transaction is too large: it is (\d+) while the max is (\d+)$/,
    kind: 'maxInitCodeSizeExceeded',
    message: (m) => `max initcode size exceeded: code size ${m[1]} limit ${m[2]}`,
  },
  {
    // runTx: less gas than the intrinsic gas (or EIP-7623's floor).
    pattern: /^INTRINSIC_GAS_TOO_LOW: tx gas limit (\d+) is lower than the minimum gas limit of (\d+)$/,
    kind: 'intrinsicGasTooLow',
    message: (m) => `intrinsic gas too low: have ${m[1]}, want ${m[2]}`,
  },
  {
    // runTx: "Transaction's maxFeePerGas (1) is less than the block's baseFeePerGas (7)" (gasPrice for older types).
    pattern: /^Transaction's (?:maxFeePerGas|gasPrice) \((\d+)\) is less than the block's baseFeePerGas \((\d+)\)$/,
    kind: 'feeCapTooLow',
    message: (m) => `max fee per gas less than block base fee: maxFeePerGas: ${m[1]}, baseFee: ${m[2]}`,
  },
  {
    // runTx (EthereumJS's message has the unbalanced parenthesis).
    pattern: /^Transaction's maxFeePerBlobGas (\d+)\) is less than block blobGasPrice \((\d+)\)\.$/,
    kind: 'blobFeeCapTooLow',
    message: (m) => `max fee per blob gas less than block blob gas fee: blobGasFeeCap: ${m[1]}, blobBaseFee: ${m[2]}`,
  },
  {
    // The transaction's constructor, EIP-7825 (Osaka).
    pattern: /^Transaction gas limit (\d+) exceeds the maximum allowed by EIP-7825 \((\d+)\)$/,
    kind: 'gasLimitTooHigh',
    message: (m) => `transaction gas limit too high (cap: ${m[2]}, tx: ${m[1]})`,
  },
  {
    // runTx, unless told to skip the block gas limit.
    pattern: /^tx has a higher gas limit than the block$/,
    kind: 'exceedsBlockGasLimit',
    message: () => 'exceeds block gas limit',
  },
  {
    // BlockBuilder.addTransaction.
    pattern: /^tx has a higher gas limit than the remaining gas in the block$/,
    kind: 'blockGasLimitReached',
    message: () => 'gas limit reached',
  },
  {
    // The constructors of fee market transactions.
    pattern: /^maxFeePerGas cannot be less than maxPriorityFeePerGas \(The total must be the larger of the two\)$/,
    kind: 'tipAboveFeeCap',
    message: () => 'max priority fee per gas higher than max fee per gas',
  },
  {
    // The signature: s above n/2 (EIP-2), a y-parity other than 0 or 1, a legacy v of neither 27/28 nor EIP-155's,
    // or no key recovered (getSenderPublicKey).
    pattern:
      /^(?:Invalid Signature(?:: s-values greater than secp256k1n\/2 are considered invalid)?|The y-parity of the transaction should either be 0 or 1|Legacy txs need either v = 27\/28 or v >= 37 \(EIP-155 replay protection\), got v = \d+)$/,
    kind: 'invalidSender',
    message: () => INVALID_SIG,
  },
  {
    // A legacy transaction's constructor: v signs for another chain (the message advises passing a matching Common).
    pattern: /^Incompatible EIP155-based V (\d+) and chain id (\d+)\. /,
    kind: 'invalidSender',
    message: (m) => `invalid sender: invalid chain id for signer: have ${(BigInt(m[1]!) - 35n) / 2n} want ${m[2]}`,
  },
  {
    // A typed transaction's constructor: its chain id is not the Common's (the message interpolates a function's
    // source and the chain id's bytes, so neither value is taken from it).
    pattern: /^Common chain ID [\s\S]* not matching the derived chain ID /,
    kind: 'invalidSender',
    message: () => 'invalid sender: invalid chain id for signer',
  },
  {
    // EIP-7702's constructor.
    pattern: /^Invalid EIP-7702 transaction: authorization list is empty$/,
    kind: 'invalidTransaction',
    message: () => 'set code tx must have at least one authorization tuple',
  },
  {
    // A blob transaction's network wrapper of the other fork's version (cell proofs from Osaka on, blob proofs before).
    pattern: /^EIP-7594 (not enabled|is active) on Common for EIP-(?:7594|4844) network wrapper version$/,
    kind: 'invalidTransaction',
    message: (m) => (m[1] === 'is active' ? 'unexpected sidecar version, want: 1, got: 0' : 'unexpected sidecar version, want: 0, got: 1'),
  },
  {
    // runTx: a 1559 transaction on a VM whose fork has no EIP-1559.
    pattern: /^Cannot run transaction: EIP (?:1559|2930) is not activated\.$/,
    kind: 'txTypeNotSupported',
    message: () => 'transaction type not supported',
  },
]

/** The nonce message needs a comparison to say which way it is wrong. */
const NONCE = /^the tx doesn't have the correct nonce\. account has nonce of: (\d+) tx has nonce of: (\d+)$/

/**
 * The domain's rejection for an error EthereumJS threw while making or running a transaction: a TxRejectedError of
 * the kind its message says ('rejected' with its message for one not recognised). A TxRejectedError is returned as
 * it is. Undefined for anything else (a TypeError, the store failing): that is the node's failure, not the client's.
 */
export function txRejectionOf(e: unknown): TxRejectedError | undefined {
  if (e instanceof TxRejectedError) return e
  if (!(e instanceof EthereumJSError)) return undefined
  const reason = withoutDebugSuffix(e.message)
  const nonce = NONCE.exec(reason)
  if (nonce !== null) {
    const [state, tx] = [BigInt(nonce[1]!), BigInt(nonce[2]!)]
    return tx < state
      ? new TxRejectedError(`nonce too low: tx: ${tx} state: ${state}`, 'nonceTooLow')
      : new TxRejectedError(`nonce too high: tx: ${tx} state: ${state}`, 'nonceTooHigh')
  }
  for (const rule of RULES) {
    const m = rule.pattern.exec(reason)
    if (m !== null) return new TxRejectedError(rule.message(m), rule.kind)
  }
  return new TxRejectedError(reason, 'rejected')
}
