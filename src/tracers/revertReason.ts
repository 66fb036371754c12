// A revert's reason as geth's abi.UnpackRevert reads it: Solidity's Error(string) text, or Panic(uint256)'s meaning.

const PANICS: Readonly<Record<number, string>> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

/** The reason revert data gives; undefined for anything but a well-formed Error(string) or Panic(uint256). */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0
  if (selector === 0x08c379a0) return errorString(data)
  if (selector === 0x4e487b71) {
    if (data.length < 36) return undefined
    const code = word(data, 4)
    const known = code <= 0xffn ? PANICS[Number(code)] : undefined
    return known ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

/** ABI-decodes the one string argument after the selector, with geth's bounds checks. */
function errorString(data: Uint8Array): string | undefined {
  const args = data.length - 4
  if (args < 32) return undefined
  const offset = word(data, 4)
  if (offset + 32n > BigInt(args)) return undefined
  const at = 4 + Number(offset)
  const length = word(data, at)
  if (BigInt(at + 32) + length > BigInt(data.length)) return undefined
  return Buffer.from(data.buffer, data.byteOffset + at + 32, Number(length)).toString('utf8')
}

function word(data: Uint8Array, at: number): bigint {
  return BigInt(`0x${Buffer.from(data.buffer, data.byteOffset + at, 32).toString('hex')}`)
}
