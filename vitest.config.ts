import UnpluginTypia from '@ryoppippi/unplugin-typia/vite'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [UnpluginTypia({ cache: false })],
  test: {
    include: ['src/**/*.test.ts'],
    // Workers and spawned nodes run dist/: refuse to test a build older than its sources.
    globalSetup: ['src/testing/distFresh.ts'],
    // After the summary, any file whose worker died, by name (vitest counts it neither passed nor failed).
    reporters: ['default', './src/testing/unfinishedFiles.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file per core, not vitest's default of one fewer (a single file at a time on CI's two cores): most files
    // spend their time waiting on the nodes and threads they start, which leaves a core idle.
    maxWorkers: availableParallelism(),
  },
})
