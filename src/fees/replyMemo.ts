// Replies by request, kept while the chain they were read from stands: within one head generation (canonicalFees.ts:
// heads that each extend the last) a reply that names its blocks by number is the same text each time it is asked
// for. Wallets ask the same few histories of every head, and a bench the same hundred: a kept reply is one lookup
// instead of joining a hundred samples. Bounded by replies and by characters; a reply too large for a fair share
// of the bound is not kept.

export interface ReplyMemoLimits {
  replies: number
  chars: number
}

export const DEFAULT_MEMO_LIMITS: ReplyMemoLimits = { replies: 256, chars: 4 * 1024 * 1024 }

export class ReplyMemo {
  private readonly texts = new Map<string, string>()
  private generation = -1
  private chars = 0

  constructor(private readonly limits: ReplyMemoLimits = DEFAULT_MEMO_LIMITS) {}

  /** The reply kept for `key` in `generation`; a later generation forgets the earlier one's. */
  get(key: string, generation: number): string | undefined {
    if (generation !== this.generation) {
      this.texts.clear()
      this.chars = 0
      this.generation = generation
      return undefined
    }
    return this.texts.get(key)
  }

  /** Keeps `text` as the reply to `key`, made in `generation` (dropped when that is no longer the current one). */
  set(key: string, generation: number, text: string): void {
    if (generation !== this.generation || text.length > this.limits.chars / 16 || this.texts.has(key)) return
    this.texts.set(key, text)
    this.chars += text.length
    while (this.texts.size > this.limits.replies || this.chars > this.limits.chars) {
      const [oldest, kept] = this.texts.entries().next().value as [string, string]
      this.texts.delete(oldest)
      this.chars -= kept.length
    }
  }

  /** Replies and characters kept (tests check the bounds). */
  get size(): { replies: number; chars: number } {
    return { replies: this.texts.size, chars: this.chars }
  }
}
