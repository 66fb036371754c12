import { forkName } from './evmForkNames.js'
import { ADDRESSES, codeOf, type FuzzCase } from './evmCases.js'
import type { Disagreement, FuzzReport } from './evmFuzz.js'
import { describe } from './evmOutcome.js'

// The fuzzer's printout: a disagreeing case as the few lines that reproduce it — fork, block, each account with its
// code in hex, each transaction — and both EVMs' outcomes transaction by transaction.

const h = (v: bigint): string => `0x${v.toString(16)}`
const bytes = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`

export function caseLines(c: FuzzCase): string[] {
  const b = c.block
  const lines = [
    `fork ${forkName(c.fork)} (seed ${c.seed})`,
    `block: coinbase ${h(b.coinbase)}, number ${b.number}, timestamp ${b.timestamp}, gas limit ${b.gasLimit}, difficulty ${b.difficulty}, prevRandao ${h(b.prevRandao)}, base fee ${b.baseFee}`,
  ]
  for (const a of c.accounts) {
    const storage = [...a.storage].map(([k, v]) => `${h(k)}=${h(v)}`).join(' ')
    lines.push(
      `account ${h(a.address)}: nonce ${a.nonce}, balance ${a.balance}, code ${bytes(codeOf(c, a))}${storage === '' ? '' : `, storage ${storage}`}`,
    )
  }
  c.txs.forEach((t, i) => {
    const auths = t.authorizations
      .map((a) => `{signer ${h(ADDRESSES[a.key]!)}, chain ${a.chainId}, address ${h(a.address)}, nonce ${a.nonce}}`)
      .join(' ')
    const list = t.accessList.map((e) => `${h(e.address)}[${e.storageKeys.map(h).join(',')}]`).join(' ')
    lines.push(
      `tx ${i}: type ${t.type} from ${h(ADDRESSES[0]!)} nonce ${t.nonce} to ${t.to === undefined ? '(create)' : h(t.to)} value ${t.value} gas ${t.gasLimit} fee ${t.maxFee} tip ${t.tip} data ${bytes(t.data)}` +
        (list === '' ? '' : ` access list ${list}`) +
        (auths === '' ? '' : ` authorizations ${auths}`),
    )
  })
  return lines
}

export function disagreementLines(d: Disagreement): string[] {
  const lines = [`DISAGREEMENT in case ${d.index}, transaction ${d.tx}: ${d.what.join('; ')}`, ...caseLines(d.case)]
  d.case.txs.forEach((_, i) => {
    lines.push(`  tx ${i} sponge:     ${describe(d.sponge[i]!)}`)
    lines.push(`  tx ${i} ethereumjs: ${describe(d.ethereumjs[i]!)}`)
  })
  return lines
}

export function summaryLine(r: FuzzReport): string {
  const skipped = [...r.skipped].map(([why, n]) => `${n} × ${why}`).join('; ')
  return `${r.cases} cases, ${r.txs} transactions compared${skipped === '' ? '' : `; skipped (known EthereumJS deviations): ${skipped}`}`
}
