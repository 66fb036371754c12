import fc from 'fast-check'
import type { ChainSpec } from '../chain/spec.js'
import { signJwt } from '../engine/jwt.js'
import { type FuzzCase, fuzzCases, judgeReply } from './cases.js'

export interface FuzzReport {
  cases: number
  byKind: Record<string, number>
  failures: { kind: string; body: string; why: string }[]
}

/**
 * Sends `runs` generated cases (deterministic for a seed) to a running node, 16 at a time, and judges each reply.
 * Stops collecting after 20 failures.
 */
export async function runFuzz(opts: {
  spec: ChainSpec
  httpUrl: string
  authUrl: string
  jwtSecret: Buffer
  maxBatch: number
  runs: number
  seed: number
}): Promise<FuzzReport> {
  const cases = fc.sample(fuzzCases(opts.spec, opts.maxBatch), { numRuns: opts.runs, seed: opts.seed })
  const report: FuzzReport = { cases: 0, byKind: {}, failures: [] }
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!
      const why = await send(c, opts)
      report.cases++
      const kind = c.kind.split('.')[0]!
      report.byKind[kind] = (report.byKind[kind] ?? 0) + 1
      if (why !== undefined && report.failures.length < 20) report.failures.push({ kind: c.kind, body: c.body.slice(0, 400), why })
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  return report
}

async function send(c: FuzzCase, opts: { httpUrl: string; authUrl: string; jwtSecret: Buffer; maxBatch: number }): Promise<string | undefined> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (c.port === 'auth') headers.authorization = `Bearer ${signJwt(opts.jwtSecret)}`
  try {
    const res = await fetch(c.port === 'auth' ? opts.authUrl : opts.httpUrl, { method: 'POST', headers, body: c.body })
    return judgeReply(c, res.status, await res.text(), opts.maxBatch)
  } catch (e) {
    return `request failed: ${(e as Error).message}`
  }
}
