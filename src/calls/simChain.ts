import { SimulationError } from './errors.js'
import type { SimBlock } from './simulateInput.js'

// The blocks a simulation builds, as geth's sanitizeChain settles them before running any: numbers and times
// strictly increasing, each defaulting to one more and 12 s more than the block before, and a gap in the numbers
// filled with empty blocks 12 s apart — all within 256 blocks of the base.

/** geth's maxSimulateBlocks. */
export const MAX_BLOCKS = 256n
const TIMESTAMP_INCREMENT = 12n

export interface PlannedBlock {
  number: bigint
  time: bigint
  block: SimBlock
}

export function planChain(base: { number: bigint; timestamp: bigint }, blocks: readonly SimBlock[]): PlannedBlock[] {
  const out: PlannedBlock[] = []
  let prevNumber = base.number
  let prevTime = base.timestamp
  for (const block of blocks) {
    const number = block.blockOverrides?.number ?? prevNumber + 1n
    if (number <= prevNumber) throw new SimulationError(`block numbers must be in order: ${number} <= ${prevNumber}`, 'blockNumberOrder')
    if (number - base.number > MAX_BLOCKS) throw new SimulationError('too many blocks', 'tooManyBlocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ number: n, time: prevTime, block: { calls: [] } })
    }
    const time = block.blockOverrides?.time ?? prevTime + TIMESTAMP_INCREMENT
    if (time <= prevTime) throw new SimulationError(`block timestamps must be in order: ${time} <= ${prevTime}`, 'timestampOrder')
    out.push({ number, time, block })
    prevNumber = number
    prevTime = time
  }
  return out
}
