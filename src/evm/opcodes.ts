import { Fork } from '../chain/evmFork.js'
import { Op } from './opcodeNames.js'

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
  op(Op.STOP, 0, 0, 0)
  for (const [c, g] of [
    [Op.ADD, 3],
    [Op.MUL, 5],
    [Op.SUB, 3],
    [Op.DIV, 5],
    [Op.SDIV, 5],
    [Op.MOD, 5],
    [Op.SMOD, 5],
    [Op.SIGNEXTEND, 5],
    [Op.LT, 3],
    [Op.GT, 3],
    [Op.SLT, 3],
    [Op.SGT, 3],
    [Op.EQ, 3],
    [Op.AND, 3],
    [Op.OR, 3],
    [Op.XOR, 3],
    [Op.BYTE, 3],
  ] as const)
    op(c, g, 2, 1)
  if (fork >= Fork.constantinople) for (const c of [Op.SHL, Op.SHR, Op.SAR]) op(c, 3, 2, 1)
  op(Op.ADDMOD, 8, 3, 1)
  op(Op.MULMOD, 8, 3, 1)
  op(Op.EXP, 10, 2, 1)
  op(Op.ISZERO, 3, 1, 1)
  op(Op.NOT, 3, 1, 1)
  if (fork >= Fork.osaka) op(Op.CLZ, 5, 1, 1) // EIP-7939
  op(Op.KECCAK256, 30, 2, 1)
  op(Op.ADDRESS, 2, 0, 1)
  // EIP-150 (Tangerine Whistle) and EIP-1884 (Istanbul) repriced the state reads; EIP-2929 (Berlin) made them warm or cold.
  const berlin = fork >= Fork.berlin
  const eip150 = fork >= Fork.tangerineWhistle
  const istanbul = fork >= Fork.istanbul
  const balance = berlin ? 0 : istanbul ? 700 : eip150 ? 400 : 20
  const extCode = berlin ? 0 : eip150 ? 700 : 20
  const sload = berlin ? 0 : istanbul ? 800 : eip150 ? 200 : 50
  const call = berlin ? 0 : eip150 ? 700 : 40
  op(Op.BALANCE, balance, 1, 1)
  op(Op.ORIGIN, 2, 0, 1)
  op(Op.CALLER, 2, 0, 1)
  op(Op.CALLVALUE, 2, 0, 1)
  op(Op.CALLDATALOAD, 3, 1, 1)
  op(Op.CALLDATASIZE, 2, 0, 1)
  op(Op.CALLDATACOPY, 3, 3, 0)
  op(Op.CODESIZE, 2, 0, 1)
  op(Op.CODECOPY, 3, 3, 0)
  op(Op.GASPRICE, 2, 0, 1)
  op(Op.EXTCODESIZE, extCode, 1, 1)
  op(Op.EXTCODECOPY, extCode, 4, 0)
  if (fork >= Fork.byzantium) {
    op(Op.RETURNDATASIZE, 2, 0, 1)
    op(Op.RETURNDATACOPY, 3, 3, 0)
  }
  if (fork >= Fork.constantinople) op(Op.EXTCODEHASH, berlin ? 0 : istanbul ? 700 : 400, 1, 1)
  op(Op.BLOCKHASH, 20, 1, 1)
  for (const c of [Op.COINBASE, Op.TIMESTAMP, Op.NUMBER, Op.DIFFICULTY, Op.GASLIMIT]) op(c, 2, 0, 1)
  if (istanbul) {
    op(Op.CHAINID, 2, 0, 1)
    op(Op.SELFBALANCE, 5, 0, 1)
  }
  if (fork >= Fork.london) op(Op.BASEFEE, 2, 0, 1)
  if (fork >= Fork.cancun) {
    op(Op.BLOBHASH, 3, 1, 1)
    op(Op.BLOBBASEFEE, 2, 0, 1)
  }
  op(Op.POP, 2, 1, 0)
  op(Op.MLOAD, 3, 1, 1)
  op(Op.MSTORE, 3, 2, 0)
  op(Op.MSTORE8, 3, 2, 0)
  op(Op.SLOAD, sload, 1, 1)
  op(Op.SSTORE, 0, 2, 0)
  op(Op.JUMP, 8, 1, 0)
  op(Op.JUMPI, 10, 2, 0)
  op(Op.PC, 2, 0, 1)
  op(Op.MSIZE, 2, 0, 1)
  op(Op.GAS, 2, 0, 1)
  op(Op.JUMPDEST, 1, 0, 0)
  if (fork >= Fork.cancun) {
    op(Op.TLOAD, 100, 1, 1)
    op(Op.TSTORE, 100, 2, 0)
    op(Op.MCOPY, 3, 3, 0)
  }
  if (fork >= Fork.shanghai) op(Op.PUSH0, 2, 0, 1)
  for (let c = Op.PUSH1; c <= Op.PUSH32; c++) op(c, 3, 0, 1)
  for (let n = 1; n <= 16; n++) op(Op.DUP1 + n - 1, 3, n, n + 1)
  for (let n = 1; n <= 16; n++) op(Op.SWAP1 + n - 1, 3, n + 1, n + 1)
  for (let n = 0; n <= 4; n++) op(Op.LOG0 + n, 375 * (n + 1), n + 2, 0)
  op(Op.CREATE, 32000, 3, 1)
  op(Op.CALL, call, 7, 1)
  op(Op.CALLCODE, call, 7, 1)
  op(Op.RETURN, 0, 2, 0)
  if (fork >= Fork.homestead) op(Op.DELEGATECALL, call, 6, 1)
  if (fork >= Fork.constantinople) op(Op.CREATE2, 32000, 4, 1)
  if (fork >= Fork.byzantium) {
    op(Op.STATICCALL, call, 6, 1)
    op(Op.REVERT, 0, 2, 0)
  }
  op(Op.SELFDESTRUCT, eip150 ? 5000 : 0, 1, 0)
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
