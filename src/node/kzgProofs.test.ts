import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { kzgSetupLoadedHere } from '../crypto/kzg.js'
import { tempDatadir } from '../testing/paths.js'
import { startTestNode } from '../testing/testNode.js'
import { silentLogger } from '../util/logger.js'
import { startReader } from './reader.js'

// A serving thread that ran an eth_call to the point-evaluation precompile (0x0a) loaded c-kzg's trusted setup itself
// on the first one: ~2.4 s of CPU, every connection it served held meanwhile (an eth_call answered in 2,489 ms, the next
// in 5 ms), though the node's KZG thread had loaded the setup already. The KZG thread now verifies for every thread.
// A reader (`sponge rpc`) had no KZG thread at all: each of its threads loaded a setup on its first such call.

const POINT_EVALUATION = `0x${'0a'.padStart(40, '0')}`
/** FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS, as the precompile returns them on success. */
const SUCCESS = `0x${'1000'.padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`
/** The zero polynomial: its commitment and every opening proof are the point at infinity, its value 0 everywhere. */
const INFINITY = Buffer.concat([Buffer.from([0xc0]), Buffer.alloc(47)])

function input(y: number): string {
  const versionedHash = createHash('sha256').update(INFINITY).digest()
  versionedHash[0] = 0x01
  const word = (v: number) => Buffer.concat([Buffer.alloc(31), Buffer.from([v])])
  return `0x${Buffer.concat([versionedHash, word(5), word(y), INFINITY, INFINITY]).toString('hex')}`
}

describe('the point-evaluation precompile on a thread that serves', () => {
  it("asks the node's KZG thread instead of loading c-kzg's setup on the serving thread", async () => {
    // One thread: the port is served here, in this test's thread, where a call's precompile then runs.
    const t = await startTestNode({ httpThreads: 1, kzgAtStart: true })
    try {
      const call = (y: number) => t.http<string>('eth_call', [{ to: POINT_EVALUATION, data: input(y), gas: '0x100000' }, 'latest'])
      const valid = await call(0)
      expect(valid.result).toBe(SUCCESS)
      const invalid = await call(1)
      expect(invalid.error?.message).toMatch(/verifying kzg proof/)
      expect(kzgSetupLoadedHere()).toBe(false)
    } finally {
      await t.close()
    }
  })

  it("a reader's serving thread asks the reader's own KZG thread", async () => {
    const datadir = tempDatadir('kzg-reader')
    try {
      // A chain for the reader to read: the node made it and is gone (its KZG thread never started).
      const t = await startTestNode({ datadir })
      await t.close()
      const reader = await startReader(t.spec, {
        datadir,
        http: { host: '127.0.0.1', port: 0, apis: ['eth'] },
        httpThreads: 1,
        workers: 1,
        kzgAtStart: true,
        log: silentLogger,
      })
      try {
        const call = async (y: number) => {
          const res = await fetch(`http://127.0.0.1:${reader.httpPort}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'eth_call',
              params: [{ to: POINT_EVALUATION, data: input(y), gas: '0x100000' }, 'latest'],
            }),
          })
          return (await res.json()) as { result?: string; error?: { message: string } }
        }
        expect((await call(0)).result).toBe(SUCCESS)
        expect((await call(1)).error?.message).toMatch(/verifying kzg proof/)
        expect(kzgSetupLoadedHere()).toBe(false)
      } finally {
        await reader.close()
      }
    } finally {
      rmSync(datadir, { recursive: true, force: true })
    }
  })
})
