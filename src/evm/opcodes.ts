import { Fork } from '../chain/evmFork.js'
import {
  BASE,
  BLOCKHASH,
  CREATE,
  HIGH,
  JUMPDEST,
  KECCAK256,
  LOG,
  LOG_TOPIC,
  LOW,
  MID,
  SELFDESTRUCT,
  VERYLOW,
  WARM_STORAGE_READ,
  ZERO,
} from './gas.js'
import { Op } from './opcodeNames.js'

// Each opcode's static gas (the tiers of gas.ts) and stack shape per fork; -1 for an opcode the fork does not have. The interpreter checks
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
  op(Op.STOP, ZERO, 0, 0)
  for (const [c, g] of [
    [Op.ADD, VERYLOW],
    [Op.MUL, LOW],
    [Op.SUB, VERYLOW],
    [Op.DIV, LOW],
    [Op.SDIV, LOW],
    [Op.MOD, LOW],
    [Op.SMOD, LOW],
    [Op.SIGNEXTEND, LOW],
    [Op.LT, VERYLOW],
    [Op.GT, VERYLOW],
    [Op.SLT, VERYLOW],
    [Op.SGT, VERYLOW],
    [Op.EQ, VERYLOW],
    [Op.AND, VERYLOW],
    [Op.OR, VERYLOW],
    [Op.XOR, VERYLOW],
    [Op.BYTE, VERYLOW],
  ] as const)
    op(c, g, 2, 1)
  if (fork >= Fork.constantinople) for (const c of [Op.SHL, Op.SHR, Op.SAR]) op(c, VERYLOW, 2, 1)
  op(Op.ADDMOD, MID, 3, 1)
  op(Op.MULMOD, MID, 3, 1)
  op(Op.EXP, HIGH, 2, 1)
  op(Op.ISZERO, VERYLOW, 1, 1)
  op(Op.NOT, VERYLOW, 1, 1)
  if (fork >= Fork.osaka) op(Op.CLZ, LOW, 1, 1) // EIP-7939
  op(Op.KECCAK256, KECCAK256, 2, 1)
  op(Op.ADDRESS, BASE, 0, 1)
  // EIP-150 (Tangerine Whistle) and EIP-1884 (Istanbul) repriced the state reads; EIP-2929 (Berlin) made them warm or cold.
  const berlin = fork >= Fork.berlin
  const eip150 = fork >= Fork.tangerineWhistle
  const istanbul = fork >= Fork.istanbul
  const balance = berlin ? 0 : istanbul ? 700 : eip150 ? 400 : 20
  const extCode = berlin ? 0 : eip150 ? 700 : 20
  const sload = berlin ? 0 : istanbul ? 800 : eip150 ? 200 : 50
  const call = berlin ? 0 : eip150 ? 700 : 40
  op(Op.BALANCE, balance, 1, 1)
  op(Op.ORIGIN, BASE, 0, 1)
  op(Op.CALLER, BASE, 0, 1)
  op(Op.CALLVALUE, BASE, 0, 1)
  op(Op.CALLDATALOAD, VERYLOW, 1, 1)
  op(Op.CALLDATASIZE, BASE, 0, 1)
  op(Op.CALLDATACOPY, VERYLOW, 3, 0)
  op(Op.CODESIZE, BASE, 0, 1)
  op(Op.CODECOPY, VERYLOW, 3, 0)
  op(Op.GASPRICE, BASE, 0, 1)
  op(Op.EXTCODESIZE, extCode, 1, 1)
  op(Op.EXTCODECOPY, extCode, 4, 0)
  if (fork >= Fork.byzantium) {
    op(Op.RETURNDATASIZE, BASE, 0, 1)
    op(Op.RETURNDATACOPY, VERYLOW, 3, 0)
  }
  if (fork >= Fork.constantinople) op(Op.EXTCODEHASH, berlin ? 0 : istanbul ? 700 : 400, 1, 1)
  op(Op.BLOCKHASH, BLOCKHASH, 1, 1)
  for (const c of [Op.COINBASE, Op.TIMESTAMP, Op.NUMBER, Op.DIFFICULTY, Op.GASLIMIT]) op(c, BASE, 0, 1)
  if (istanbul) {
    op(Op.CHAINID, BASE, 0, 1)
    op(Op.SELFBALANCE, LOW, 0, 1)
  }
  if (fork >= Fork.london) op(Op.BASEFEE, BASE, 0, 1)
  if (fork >= Fork.cancun) {
    op(Op.BLOBHASH, VERYLOW, 1, 1)
    op(Op.BLOBBASEFEE, BASE, 0, 1)
  }
  op(Op.POP, BASE, 1, 0)
  op(Op.MLOAD, VERYLOW, 1, 1)
  op(Op.MSTORE, VERYLOW, 2, 0)
  op(Op.MSTORE8, VERYLOW, 2, 0)
  op(Op.SLOAD, sload, 1, 1)
  op(Op.SSTORE, ZERO, 2, 0)
  op(Op.JUMP, MID, 1, 0)
  op(Op.JUMPI, HIGH, 2, 0)
  op(Op.PC, BASE, 0, 1)
  op(Op.MSIZE, BASE, 0, 1)
  op(Op.GAS, BASE, 0, 1)
  op(Op.JUMPDEST, JUMPDEST, 0, 0)
  if (fork >= Fork.cancun) {
    op(Op.TLOAD, WARM_STORAGE_READ, 1, 1)
    op(Op.TSTORE, WARM_STORAGE_READ, 2, 0)
    op(Op.MCOPY, VERYLOW, 3, 0)
  }
  if (fork >= Fork.shanghai) op(Op.PUSH0, BASE, 0, 1)
  for (let c = Op.PUSH1; c <= Op.PUSH32; c++) op(c, VERYLOW, 0, 1)
  for (let n = 1; n <= 16; n++) op(Op.DUP1 + n - 1, VERYLOW, n, n + 1)
  for (let n = 1; n <= 16; n++) op(Op.SWAP1 + n - 1, VERYLOW, n + 1, n + 1)
  for (let n = 0; n <= 4; n++) op(Op.LOG0 + n, LOG + LOG_TOPIC * n, n + 2, 0)
  op(Op.CREATE, CREATE, 3, 1)
  op(Op.CALL, call, 7, 1)
  op(Op.CALLCODE, call, 7, 1)
  op(Op.RETURN, ZERO, 2, 0)
  if (fork >= Fork.homestead) op(Op.DELEGATECALL, call, 6, 1)
  if (fork >= Fork.constantinople) op(Op.CREATE2, CREATE, 4, 1)
  if (fork >= Fork.byzantium) {
    op(Op.STATICCALL, call, 6, 1)
    op(Op.REVERT, ZERO, 2, 0)
  }
  op(Op.SELFDESTRUCT, eip150 ? SELFDESTRUCT : ZERO, 1, 0)
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
