import { Common, Mainnet } from '@ethereumjs/common'
import { createEVM, type EVM, getActivePrecompiles } from '@ethereumjs/evm'
import { ETHEREUMJS_HARDFORK, type Fork } from '../chain/evmFork.js'
import { ethereumjsKzg } from '../crypto/kzg.js'
import type { Precompile } from '../evm/precompiles/types.js'

// EthereumJS 10.1.3's precompiles as the reference the differential tests of src/evm/precompiles compare against, each
// run with a Common at the fork asked for. Its own crypto (noble curves and hashes) except KZG, which it has none of:
// the reference shares no implementation with ours but c-kzg.

export interface ReferenceResult {
  ok: boolean
  gasUsed: number
  output: Uint8Array
}

export type ReferencePrecompile = (input: Uint8Array, gasLimit: number) => Promise<ReferenceResult>

const evms = new Map<Fork, Promise<EVM>>()

function evmAt(fork: Fork): Promise<EVM> {
  let evm = evms.get(fork)
  if (evm === undefined) {
    evm = createEVM({ common: new Common({ chain: Mainnet, hardfork: ETHEREUMJS_HARDFORK[fork], customCrypto: { kzg: ethereumjsKzg() } }) })
    evms.set(fork, evm)
  }
  return evm
}

/** EthereumJS's precompile at `address` in `fork`, or undefined where it has none. */
export async function referencePrecompile(address: bigint, fork: Fork): Promise<ReferencePrecompile | undefined> {
  const evm = await evmAt(fork)
  const common = evm.common
  const run = getActivePrecompiles(common).get(address.toString(16).padStart(40, '0'))
  if (run === undefined) return undefined
  return async (input, gasLimit) => {
    const r = await run({ data: input, gasLimit: BigInt(gasLimit), common, _EVM: evm })
    return { ok: r.exceptionError === undefined, gasUsed: Number(r.executionGasUsed), output: r.returnValue }
  }
}

/** The addresses EthereumJS has precompiles at in `fork`. */
export async function referenceAddresses(fork: Fork): Promise<bigint[]> {
  const evm = await evmAt(fork)
  return [...getActivePrecompiles(evm.common).keys()].map((a) => BigInt(`0x${a}`))
}

/** A result in a form vitest compares and prints readably: the output as hex. */
export function shown(r: ReferenceResult): { ok: boolean; gasUsed: number; output: string } {
  return { ok: r.ok, gasUsed: r.gasUsed, output: Buffer.from(r.output).toString('hex') }
}

/**
 * Each input through ours and EthereumJS's at gas just below what `need` says it costs, at it, and above: the
 * disagreements in output, gas or success, described (none: an empty list).
 */
export async function disagreements(
  address: bigint,
  fork: Fork,
  ours: Precompile,
  inputs: readonly Uint8Array[],
  need: (input: Uint8Array) => number,
): Promise<string[]> {
  const reference = await referencePrecompile(address, fork)
  if (reference === undefined) return [`EthereumJS has no precompile at ${address} in fork ${fork}`]
  const found: string[] = []
  for (const input of inputs) {
    const gas = need(input)
    for (const gasLimit of [gas - 1, gas, gas + 10_000]) {
      if (gasLimit < 0) continue
      const expected = shown(await reference(input, gasLimit))
      const actual = shown(ours(input, gasLimit, fork))
      if (expected.ok !== actual.ok || expected.gasUsed !== actual.gasUsed || expected.output !== actual.output) {
        const head = Buffer.from(input.subarray(0, 24)).toString('hex')
        found.push(`input ${head}… (${input.length} B) at gas ${gasLimit}: ours ${JSON.stringify(actual)}, EthereumJS ${JSON.stringify(expected)}`)
      }
    }
  }
  return found
}
