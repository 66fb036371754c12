import UnpluginTypia from '@ryoppippi/unplugin-typia/vite'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [UnpluginTypia({ cache: false })],
  test: {
    include: ['src/**/*.test.ts'],
    // Workers and spawned nodes run dist/: refuse to test a build older than its sources.
    globalSetup: ['src/testing/distFresh.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
