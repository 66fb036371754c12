import type { SpawnedNode } from '../testing/spawnNode.js'

/**
 * Resolves once the node's KZG thread has loaded its trusted setup. A node starts loading it once it serves: seconds
 * of one core's CPU, on a machine whose other core runs the load generator, so a bench that measured at once measured
 * its first workload against a node with half a core (a state-read batch beside anvil: 0.47-0.67 of anvil during the
 * load, 1.03 after). A node started with --no-kzg-preload loads nothing until its first blob transaction: no wait.
 */
export async function kzgLoaded(node: SpawnedNode, args: readonly string[] = []): Promise<void> {
  if (args.includes('--no-kzg-preload')) return
  await node.outputMatches(/KZG trusted setup loaded/, 60_000)
}
