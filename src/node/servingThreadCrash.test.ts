import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { tempDatadir } from '../testing/paths.js'
import { localNodeOptions } from '../testing/testNode.js'
import type { Logger } from '../util/logger.js'
import { type RunningNode, startNode } from './node.js'

// A serving thread that throws, uncaught, must not take the node with it: this uWS build aborts the whole process
// when a thread ends with its sockets open, so the thread closes its app first; the main thread logs the end and
// starts another thread in its slot — but not forever: a slot whose thread keeps ending is given up.

let node: RunningNode
const datadir = tempDatadir('thread-crash')
const logged: { msg: string; fields: Record<string, unknown> }[] = []
let heard: ((msg: string) => void) | undefined
const log: Logger = {
  error: (msg, fields) => note(msg, fields),
  warn: (msg, fields) => note(msg, fields),
  info: (msg, fields) => note(msg, fields),
  debug: () => undefined,
}
function note(msg: string, fields: Record<string, unknown> = {}): void {
  logged.push({ msg, fields })
  heard?.(msg)
}
/** Resolves when a line matching `pattern` is logged after the call. */
function logs(pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const before = heard
    heard = (msg) => {
      before?.(msg)
      if (pattern.test(msg)) resolve(msg)
    }
  })
}

beforeAll(async () => {
  node = await startNode(new ChainSpec(devGenesis()), localNodeOptions(datadir, { httpThreads: 2, log }))
})

afterAll(async () => {
  await node?.close()
  rmSync(datadir, { recursive: true, force: true })
})

async function blockNumber(): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${node.httpPort}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })
  return ((await res.json()) as { result?: unknown }).result
}

describe('a serving thread that fails', () => {
  it('is logged and replaced in its slot, and the node serves on', async () => {
    const threads = node.servingThreads!
    const replaced = logs(/took the place of one that ended/)
    threads.fail(0, 'a bug in a handler')
    await replaced
    expect(logged.find((l) => /ended; starting another/.test(l.msg))?.fields).toMatchObject({ slot: 0, exitCode: 1 })
    expect(String(logged.find((l) => /ended; starting another/.test(l.msg))?.fields.error)).toMatch(/a bug in a handler/)
    expect(threads.running).toBe(2)
    // Both slots answer again: the replacement counts in the slot it took.
    const taken = threads.taken()
    for (let i = 0; i < 200 && threads.taken().some((n, slot) => n === taken[slot]); i++) expect(await blockNumber()).toBe('0x0')
    expect(threads.taken().every((n, slot) => n > taken[slot]!)).toBe(true)
  })

  it('is given up once it has ended more than three times within a minute, and the others serve on', async () => {
    const threads = node.servingThreads!
    for (let i = 0; i < 3; i++) {
      const replaced = logs(/took the place of one that ended/)
      threads.fail(1, `failure ${i}`)
      await replaced
    }
    const given = logs(/its place is left empty/)
    threads.fail(1, 'failure 3')
    expect(await given).toMatch(/ended 4 times within 60 s/)
    expect(threads.running).toBe(1)
    for (let i = 0; i < 20; i++) expect(await blockNumber()).toBe('0x0')
  })
})
