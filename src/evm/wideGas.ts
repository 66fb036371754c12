// Gas is a number in the interpreter: exact below 2^53, which every real gas limit is (Osaka caps a transaction at
// 2^24). Older forks let a test give a transaction up to 2^64 gas, and such a transaction still needs its GAS opcode
// and 63/64 rule exact. So gas past 2^52 is held as `base + gas`: the number part starts at 2^52 and no execution can
// spend it down, and the few places that read gas whole (GAS, the call and create gas, a frame's return) add the base.

export const SPLIT_AT = 2 ** 52
const SPLIT_AT_BIG = BigInt(SPLIT_AT)

/** Absolute gas as (number part, base). */
export function splitGas(abs: bigint): { gas: number; base: bigint } {
  if (abs <= SPLIT_AT_BIG) return { gas: Number(abs), base: 0n }
  return { gas: SPLIT_AT, base: abs - SPLIT_AT_BIG }
}

export function wholeGas(gas: number, base: bigint): bigint {
  return base + BigInt(gas)
}
