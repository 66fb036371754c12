import { type Logger as Pino, pino } from 'pino'

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

type Fields = Record<string, unknown>

/** The node's log: one JSON line per event (pino), with the event's facts as fields. */
export interface Logger {
  error(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  debug(msg: string, fields?: Fields): void
}

function wrap(p: Pino): Logger {
  return {
    error: (msg, fields) => p.error(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
  }
}

/** Logs to stderr, synchronously: the process exits right after its last line and must not lose it. */
export function stderrLogger(level: LogLevel): Logger {
  return wrap(pino({ level, base: undefined }, pino.destination({ fd: 2, sync: true })))
}

/** Collects the JSON lines it would write (tests). */
export function collectingLogger(lines: string[], level: LogLevel = 'debug'): Logger {
  return wrap(pino({ level, base: undefined }, { write: (line: string) => void lines.push(line) }))
}

export const silentLogger: Logger = wrap(pino({ level: 'silent' }))
