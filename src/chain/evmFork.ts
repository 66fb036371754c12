import { Hardfork } from '@ethereumjs/common'

// The forks Sponge's EVM runs, in order. Rules compare with `>=` (fork >= Fork.cancun), so a number per fork keeps that
// one integer comparison on the hot path. The BPO forks change only the blob schedule, which the block supplies: they
// execute as Osaka. Blocks before Berlin are not executed by this EVM.

export const Fork = {
  berlin: 0,
  london: 1,
  paris: 2,
  shanghai: 3,
  cancun: 4,
  prague: 5,
  osaka: 6,
} as const
export type Fork = (typeof Fork)[keyof typeof Fork]

const BY_NAME: Readonly<Record<string, Fork>> = {
  Berlin: Fork.berlin,
  London: Fork.london,
  Paris: Fork.paris,
  Merge: Fork.paris,
  Shanghai: Fork.shanghai,
  Cancun: Fork.cancun,
  Prague: Fork.prague,
  Osaka: Fork.osaka,
  berlin: Fork.berlin,
  london: Fork.london,
  arrowGlacier: Fork.london,
  grayGlacier: Fork.london,
  paris: Fork.paris,
  shanghai: Fork.shanghai,
  cancun: Fork.cancun,
  prague: Fork.prague,
  osaka: Fork.osaka,
  bpo1: Fork.osaka,
  bpo2: Fork.osaka,
  bpo3: Fork.osaka,
  bpo4: Fork.osaka,
  bpo5: Fork.osaka,
}

/** A fork by its name in a chain spec (`cancun`) or in the execution-spec-tests (`Cancun`); undefined before Berlin. */
export function forkByName(name: string): Fork | undefined {
  return BY_NAME[name]
}

/** The EthereumJS hardfork of each fork: the reference EVM's Common, in tests, benches and the state-test runner. */
export const ETHEREUMJS_HARDFORK: Readonly<Record<Fork, Hardfork>> = {
  [Fork.berlin]: Hardfork.Berlin,
  [Fork.london]: Hardfork.London,
  [Fork.paris]: Hardfork.Paris,
  [Fork.shanghai]: Hardfork.Shanghai,
  [Fork.cancun]: Hardfork.Cancun,
  [Fork.prague]: Hardfork.Prague,
  [Fork.osaka]: Hardfork.Osaka,
}
