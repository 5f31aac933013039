import { defineConfig } from 'vitest/config';

// Integration tests start real servers and child processes; two cores, so keep parallelism modest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
