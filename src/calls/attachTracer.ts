import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { VM } from '@ethereumjs/vm'
import type { TraceOptions, Tracer } from './tracer.js'
import { StructLogger } from './structLogger.js'
import { CallTracer } from './callTracer.js'
import { PrestateTracer } from './prestateTracer.js'

// A tracer chosen by the options and hooked to a VM's EVM events for the traced transactions only.

function tracerFor(opts: TraceOptions): Tracer {
  if (opts.tracer === 'callTracer') return new CallTracer(opts)
  if (opts.tracer === 'prestateTracer') return new PrestateTracer(opts)
  return new StructLogger(opts)
}

/** Attaches a fresh tracer to a VM's EVM events until `detach` is called; errors a listener meets are kept. */
export function attachTracer(vm: VM, opts: TraceOptions): { tracer: Tracer; detach: () => void; failure: () => unknown } {
  const tracer = tracerFor(opts)
  let failure: unknown
  const guard = async (f: () => Promise<void> | void, resolve?: () => void) => {
    try {
      await f()
    } catch (e) {
      failure ??= e
    }
    resolve?.()
  }
  const onStep = (s: InterpreterStep, resolve?: () => void) => void guard(() => tracer.step(s), resolve)
  const onBefore = (m: Message, resolve?: () => void) => void guard(() => tracer.beforeMessage(m), resolve)
  const onAfter = (r: EVMResult, resolve?: () => void) => void guard(() => tracer.afterMessage(r), resolve)
  const events = vm.evm.events!
  events.on('step', onStep)
  events.on('beforeMessage', onBefore)
  events.on('afterMessage', onAfter)
  return {
    tracer,
    failure: () => failure,
    detach: () => {
      events.off('step', onStep)
      events.off('beforeMessage', onBefore)
      events.off('afterMessage', onAfter)
    },
  }
}
