/** A one-line progress bar on a TTY; periodic lines otherwise (CI logs). */
export function progressBar(label: string, enabled: boolean): (done: number, total: number, note: string) => void {
  const tty = process.stderr.isTTY === true
  let lastLine = 0
  const started = Date.now()
  return (done, total, note) => {
    if (!enabled) return
    const now = Date.now()
    const finished = done === total
    if (!tty) {
      if (finished || now - lastLine > 2000) {
        process.stderr.write(`${label} ${done}/${total} ${note}\n`)
        lastLine = now
      }
      return
    }
    if (!finished && now - lastLine < 50) return
    lastLine = now
    const width = 30
    const filled = total === 0 ? width : Math.round((done / total) * width)
    const rate = done / Math.max((now - started) / 1000, 0.001)
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`
    process.stderr.write(`\r${label} [${bar}] ${done}/${total} ${rate.toFixed(1)} blk/s ${note}   `)
    if (finished) process.stderr.write('\n')
  }
}
