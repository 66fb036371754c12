import type { ChainStore } from '../store/chainStore.js'
import { CODE_PREFIX } from '../store/layout.js'

// Contract code by its hash, one array per hash for the thread: the interpreter keeps each code's analysis (jump
// destinations, PUSH constants) beside the array itself, so handing out the same array for the same code is what
// makes a contract called a thousand times be analysed once. Code never changes under its hash, so nothing goes stale.

/** Bytes of code kept; past it the oldest codes are dropped (and analysed again if they come back). */
const MAX_BYTES = 64 * 1024 * 1024

export class CodeCache {
  private readonly codes = new Map<string, Uint8Array>()
  private bytes = 0
  private readonly key = new Uint8Array(CODE_PREFIX.length + 32)

  constructor(private readonly store: Pick<ChainStore, 'getTrieNode'>) {
    this.key.set(CODE_PREFIX)
  }

  /** The code whose hash is `codeHash`; an account read from a stored state has its code stored, so a miss is the store's fault. */
  get(codeHash: Uint8Array): Uint8Array {
    const id = Buffer.from(codeHash.buffer, codeHash.byteOffset, 32).toString('latin1')
    let code = this.codes.get(id)
    if (code !== undefined) return code
    this.key.set(codeHash, CODE_PREFIX.length)
    code = this.store.getTrieNode(this.key)
    if (code === undefined) throw new Error(`code ${Buffer.from(codeHash).toString('hex')} missing from the store`)
    this.codes.set(id, code)
    this.bytes += code.length
    for (const [k, v] of this.codes) {
      if (this.bytes <= MAX_BYTES) break
      this.codes.delete(k)
      this.bytes -= v.length
    }
    return code
  }
}
