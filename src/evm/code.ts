// Code analysis: which offsets are JUMPDESTs (not inside PUSH data). Done once per code array and kept beside it, so a
// contract called a thousand times is analysed once: state sources hand out the same array for the same code.

export interface AnalyzedCode {
  readonly bytes: Uint8Array
  /** 1 where a JUMP may land. */
  readonly jumpdests: Uint8Array
  /** PUSH7..PUSH32 values by the PUSH's offset, filled as they run: a constant is read from the code once. */
  readonly pushes: (bigint | undefined)[]
}

const analyzed = new WeakMap<Uint8Array, AnalyzedCode>()

export function analyze(bytes: Uint8Array): AnalyzedCode {
  let a = analyzed.get(bytes)
  if (a === undefined) {
    const jumpdests = new Uint8Array(bytes.length)
    for (let pc = 0; pc < bytes.length; pc++) {
      const op = bytes[pc]!
      if (op === 0x5b) jumpdests[pc] = 1
      else if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f
    }
    a = { bytes, jumpdests, pushes: new Array<bigint | undefined>(bytes.length) }
    analyzed.set(bytes, a)
  }
  return a
}

/** EIP-7702: code that is exactly 0xef0100 ++ address delegates to that address. */
export function delegationTarget(code: Uint8Array): bigint | undefined {
  if (code.length !== 23 || code[0] !== 0xef || code[1] !== 0x01 || code[2] !== 0x00) return undefined
  let a = 0n
  for (let i = 3; i < 23; i++) a = (a << 8n) | BigInt(code[i]!)
  return a
}
