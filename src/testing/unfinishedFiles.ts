import type { Reporter, TestModule } from 'vitest/node'

// A test file whose worker process dies (a native abort, a kill) is counted neither passed nor failed: vitest says
// only "Worker exited unexpectedly", and its per-file lines, which would show the missing one, scroll away in a long
// run. This reporter names, after the summary, each file left unfinished and the tests in it that never ended.

/** What the report reads of a test file: its path, its state, and its tests' names and states. */
export interface FileLike {
  relativeModuleId: string
  state(): string
  children: { allTests(): Iterable<{ fullName: string; result(): { state: string } }> }
}

/** The lines naming each unfinished file and its tests without an end; none when every file finished. */
export function unfinishedReport(files: readonly FileLike[]): string[] {
  const lines: string[] = []
  for (const file of files) {
    const state = file.state()
    if (state !== 'queued' && state !== 'pending') continue
    lines.push(`unfinished test file (its worker died?): ${file.relativeModuleId}`)
    for (const test of file.children.allTests()) {
      const s = test.result().state
      if (s === 'pending') lines.push(`  never ended: ${test.fullName}`)
    }
  }
  return lines
}

export default class UnfinishedFiles implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const lines = unfinishedReport(modules)
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`)
  }
}
