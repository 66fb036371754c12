import { Hardfork } from '@ethereumjs/common'
import type { ForkName } from './forks.js'

// The forks Sponge's EVM runs, in order. Rules compare with `>=` (fork >= Fork.cancun), so a number per fork keeps that
// one integer comparison on the hot path. Forks that change nothing the EVM executes run as the fork before them: the
// DAO fork (a one-off balance move, done by the block processor) as Homestead, Muir Glacier as Istanbul, Arrow and Gray
// Glacier as London (difficulty bombs), the BPO forks as Osaka (the block supplies the blob schedule).

export const Fork = {
  frontier: 0,
  homestead: 1,
  /** EIP-150: gas repricing of state access, 63/64 of the gas to calls and creates. */
  tangerineWhistle: 2,
  /** EIP-155, 158/161 (empty accounts cleared), 160 (EXP per byte), 170 (code size limit). */
  spuriousDragon: 3,
  byzantium: 4,
  constantinople: 5,
  /** Constantinople without EIP-1283's SSTORE metering. */
  petersburg: 6,
  istanbul: 7,
  berlin: 8,
  london: 9,
  paris: 10,
  shanghai: 11,
  cancun: 12,
  prague: 13,
  osaka: 14,
} as const
export type Fork = (typeof Fork)[keyof typeof Fork]

/** The fork each name of a chain spec (src/chain/forks.ts) runs as. */
const BY_SPEC_NAME: Readonly<Record<ForkName | 'frontier', Fork>> = {
  frontier: Fork.frontier,
  homestead: Fork.homestead,
  dao: Fork.homestead,
  tangerineWhistle: Fork.tangerineWhistle,
  spuriousDragon: Fork.spuriousDragon,
  byzantium: Fork.byzantium,
  constantinople: Fork.constantinople,
  petersburg: Fork.petersburg,
  istanbul: Fork.istanbul,
  muirGlacier: Fork.istanbul,
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

const BY_NAME: Readonly<Record<string, Fork>> = {
  // The execution-spec-tests' names (and the legacy tests' EIP150, EIP158, ConstantinopleFix).
  Frontier: Fork.frontier,
  Homestead: Fork.homestead,
  EIP150: Fork.tangerineWhistle,
  TangerineWhistle: Fork.tangerineWhistle,
  EIP158: Fork.spuriousDragon,
  SpuriousDragon: Fork.spuriousDragon,
  Byzantium: Fork.byzantium,
  Constantinople: Fork.constantinople,
  ConstantinopleFix: Fork.petersburg,
  Petersburg: Fork.petersburg,
  Istanbul: Fork.istanbul,
  MuirGlacier: Fork.istanbul,
  Berlin: Fork.berlin,
  London: Fork.london,
  ArrowGlacier: Fork.london,
  GrayGlacier: Fork.london,
  Paris: Fork.paris,
  Merge: Fork.paris,
  Shanghai: Fork.shanghai,
  Cancun: Fork.cancun,
  Prague: Fork.prague,
  Osaka: Fork.osaka,
  ...BY_SPEC_NAME,
}

/** The fork Sponge's EVM runs a chain spec's fork as: every fork has one. */
export function evmFork(name: ForkName | 'frontier'): Fork {
  return BY_SPEC_NAME[name]
}

/** A fork by its name in a chain spec (`cancun`, `dao`) or in the state tests (`Cancun`, `EIP150`); undefined if unknown. */
export function forkByName(name: string): Fork | undefined {
  return Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined
}

/** The fork Sponge's EVM runs an EthereumJS Common's hardfork as (what the pool's and builder's rules are given). */
export function forkOfHardfork(hardfork: string): Fork {
  if (hardfork === Hardfork.Chainstart) return Fork.frontier
  // geth's marker of the block that split the network after the merge: the rules are the merge's.
  if (hardfork === Hardfork.MergeNetsplitBlock) return Fork.paris
  if (!Object.hasOwn(BY_SPEC_NAME, hardfork)) throw new Error(`no EVM fork for EthereumJS's hardfork ${hardfork}`)
  return BY_SPEC_NAME[hardfork as ForkName]
}

/** The EthereumJS hardfork of each fork: the reference EVM's Common, in tests, benches, the state-test runner and the fuzzer. */
export const ETHEREUMJS_HARDFORK: Readonly<Record<Fork, Hardfork>> = {
  [Fork.frontier]: Hardfork.Chainstart,
  [Fork.homestead]: Hardfork.Homestead,
  [Fork.tangerineWhistle]: Hardfork.TangerineWhistle,
  [Fork.spuriousDragon]: Hardfork.SpuriousDragon,
  [Fork.byzantium]: Hardfork.Byzantium,
  [Fork.constantinople]: Hardfork.Constantinople,
  [Fork.petersburg]: Hardfork.Petersburg,
  [Fork.istanbul]: Hardfork.Istanbul,
  [Fork.berlin]: Hardfork.Berlin,
  [Fork.london]: Hardfork.London,
  [Fork.paris]: Hardfork.Paris,
  [Fork.shanghai]: Hardfork.Shanghai,
  [Fork.cancun]: Hardfork.Cancun,
  [Fork.prague]: Hardfork.Prague,
  [Fork.osaka]: Hardfork.Osaka,
}

/** Every fork, oldest first. */
export const ALL_FORKS: readonly Fork[] = Object.values(Fork)
