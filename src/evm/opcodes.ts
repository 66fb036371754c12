import { Fork } from '../chain/evmFork.js'

// Each opcode's static gas and stack shape per fork; -1 for an opcode the fork does not have. The interpreter checks
// the stack and charges the static gas from these tables before an opcode's own work. Before Berlin the state reads
// (SLOAD, BALANCE, EXTCODE*, CALL*) cost a fixed price, which sits here; from Berlin their price is warm or cold, charged
// by the opcode itself, and their static gas here is 0.

export interface OpTable {
  /** Static gas, or -1: not an opcode in this fork. */
  readonly gas: Int32Array
  readonly pops: Uint8Array
  /** Items on the stack after minus before (may be negative): a table of +1 offsets, 0..2 meaning -1..+1 etc. */
  readonly growth: Int8Array
}

function define(fork: Fork): OpTable {
  const gas = new Int32Array(256).fill(-1)
  const pops = new Uint8Array(256)
  const growth = new Int8Array(256)
  const op = (code: number, g: number, inn: number, out: number) => {
    gas[code] = g
    pops[code] = inn
    growth[code] = out - inn
  }
  op(0x00, 0, 0, 0)
  for (const [c, g] of [
    [0x01, 3],
    [0x02, 5],
    [0x03, 3],
    [0x04, 5],
    [0x05, 5],
    [0x06, 5],
    [0x07, 5],
    [0x0b, 5],
    [0x10, 3],
    [0x11, 3],
    [0x12, 3],
    [0x13, 3],
    [0x14, 3],
    [0x16, 3],
    [0x17, 3],
    [0x18, 3],
    [0x1a, 3],
  ] as const)
    op(c, g, 2, 1)
  if (fork >= Fork.constantinople) for (const c of [0x1b, 0x1c, 0x1d]) op(c, 3, 2, 1)
  op(0x08, 8, 3, 1)
  op(0x09, 8, 3, 1)
  op(0x0a, 10, 2, 1)
  op(0x15, 3, 1, 1)
  op(0x19, 3, 1, 1)
  if (fork >= Fork.osaka) op(0x1e, 5, 1, 1) // CLZ, EIP-7939
  op(0x20, 30, 2, 1)
  op(0x30, 2, 0, 1)
  // EIP-150 (Tangerine Whistle) and EIP-1884 (Istanbul) repriced the state reads; EIP-2929 (Berlin) made them warm or cold.
  const berlin = fork >= Fork.berlin
  const eip150 = fork >= Fork.tangerineWhistle
  const istanbul = fork >= Fork.istanbul
  const balance = berlin ? 0 : istanbul ? 700 : eip150 ? 400 : 20
  const extCode = berlin ? 0 : eip150 ? 700 : 20
  const sload = berlin ? 0 : istanbul ? 800 : eip150 ? 200 : 50
  const call = berlin ? 0 : eip150 ? 700 : 40
  op(0x31, balance, 1, 1)
  op(0x32, 2, 0, 1)
  op(0x33, 2, 0, 1)
  op(0x34, 2, 0, 1)
  op(0x35, 3, 1, 1)
  op(0x36, 2, 0, 1)
  op(0x37, 3, 3, 0)
  op(0x38, 2, 0, 1)
  op(0x39, 3, 3, 0)
  op(0x3a, 2, 0, 1)
  op(0x3b, extCode, 1, 1)
  op(0x3c, extCode, 4, 0)
  if (fork >= Fork.byzantium) {
    op(0x3d, 2, 0, 1)
    op(0x3e, 3, 3, 0)
  }
  if (fork >= Fork.constantinople) op(0x3f, berlin ? 0 : istanbul ? 700 : 400, 1, 1)
  op(0x40, 20, 1, 1)
  for (const c of [0x41, 0x42, 0x43, 0x44, 0x45]) op(c, 2, 0, 1)
  if (istanbul) {
    op(0x46, 2, 0, 1)
    op(0x47, 5, 0, 1)
  }
  if (fork >= Fork.london) op(0x48, 2, 0, 1)
  if (fork >= Fork.cancun) {
    op(0x49, 3, 1, 1)
    op(0x4a, 2, 0, 1)
  }
  op(0x50, 2, 1, 0)
  op(0x51, 3, 1, 1)
  op(0x52, 3, 2, 0)
  op(0x53, 3, 2, 0)
  op(0x54, sload, 1, 1)
  op(0x55, 0, 2, 0)
  op(0x56, 8, 1, 0)
  op(0x57, 10, 2, 0)
  op(0x58, 2, 0, 1)
  op(0x59, 2, 0, 1)
  op(0x5a, 2, 0, 1)
  op(0x5b, 1, 0, 0)
  if (fork >= Fork.cancun) {
    op(0x5c, 100, 1, 1)
    op(0x5d, 100, 2, 0)
    op(0x5e, 3, 3, 0)
  }
  if (fork >= Fork.shanghai) op(0x5f, 2, 0, 1)
  for (let c = 0x60; c <= 0x7f; c++) op(c, 3, 0, 1)
  for (let n = 1; n <= 16; n++) op(0x7f + n, 3, n, n + 1)
  for (let n = 1; n <= 16; n++) op(0x8f + n, 3, n + 1, n + 1)
  for (let n = 0; n <= 4; n++) op(0xa0 + n, 375 * (n + 1), n + 2, 0)
  op(0xf0, 32000, 3, 1)
  op(0xf1, call, 7, 1)
  op(0xf2, call, 7, 1)
  op(0xf3, 0, 2, 0)
  if (fork >= Fork.homestead) op(0xf4, call, 6, 1)
  if (fork >= Fork.constantinople) op(0xf5, 32000, 4, 1)
  if (fork >= Fork.byzantium) {
    op(0xfa, call, 6, 1)
    op(0xfd, 0, 2, 0)
  }
  op(0xff, eip150 ? 5000 : 0, 1, 0)
  return { gas, pops, growth }
}

const tables = new Map<Fork, OpTable>()

export function opTable(fork: Fork): OpTable {
  let t = tables.get(fork)
  if (t === undefined) {
    t = define(fork)
    tables.set(fork, t)
  }
  return t
}
