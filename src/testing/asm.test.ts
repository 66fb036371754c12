import { describe, expect, it } from 'vitest'
import { LOOP_FOREVER, assemble } from './asm.js'

describe('the test assembler', () => {
  it('encodes pushes by width and resolves labels to JUMPDESTs', () => {
    expect(assemble(['0x01', '0x0002', 'ADD'])).toBe('0x600161000201')
    expect(assemble([{ target: 'x' }, 'JUMP', { label: 'x' }, 'STOP'])).toBe('0x610004565b00')
    expect(() => assemble([{ target: 'nowhere' }])).toThrow(/unknown label/)
    // JUMPDEST; PUSH2 0; JUMP.
    expect(LOOP_FOREVER).toBe('0x5b61000056')
  })
})
