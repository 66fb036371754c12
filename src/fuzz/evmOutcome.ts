// What one transaction of a fuzz case came to, in a form both EVMs give and that compares as text.

/** Events of a run that a known EthereumJS deviation turns on (evmKnown.ts says what each is). */
export type Mark = 'revertedInitCodeWithEf'

export type TxOutcome =
  | { kind: 'rejected'; reason: string }
  | {
      kind: 'executed'
      status: 'success' | 'revert' | 'error'
      /** After refunds: what the block counts. */
      gasUsed: bigint
      output: string
      /** `address topics… data`, one a log. */
      logs: string[]
      /** The state root after the transaction. */
      root: string
      /** The EVM's own words for a failure (not compared: each has its own). */
      error: string | undefined
      /** What happened in the run that a known EthereumJS deviation turns on (evmKnown.ts; Sponge's runs only). */
      marks: ReadonlySet<Mark>
      /** Each account of interest after it (address → `nonce n balance b code <hash> storage <root>`, or `absent`). */
      accounts: Map<string, string>
    }

/** The fields in which two outcomes differ, each as `field: sponge ≠ ethereumjs`; empty when they agree. */
export function differences(sponge: TxOutcome, ethereumjs: TxOutcome): string[] {
  if (sponge.kind === 'rejected' || ethereumjs.kind === 'rejected') {
    return sponge.kind === ethereumjs.kind ? [] : [`kind: ${describe(sponge)} ≠ ${describe(ethereumjs)}`]
  }
  const out: string[] = []
  for (const k of ['status', 'gasUsed', 'output', 'logs', 'root'] as const) {
    const a = JSON.stringify(sponge[k], (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    const b = JSON.stringify(ethereumjs[k], (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    if (a !== b) out.push(`${k}: ${a} ≠ ${b}`)
  }
  if (sponge.root !== ethereumjs.root) {
    // Name the accounts that differ (of those both were asked about).
    for (const [address, a] of sponge.accounts) {
      const b = ethereumjs.accounts.get(address)
      if (b !== undefined && a !== b) out.push(`account ${address}: ${a} ≠ ${b}`)
    }
  }
  return out
}

export function describe(o: TxOutcome): string {
  if (o.kind === 'rejected') return `rejected (${o.reason})`
  return `${o.status}${o.error === undefined ? '' : ` (${o.error})`}, gas ${o.gasUsed}, output ${o.output || '0x'}, ${o.logs.length} logs, root ${o.root}`
}
