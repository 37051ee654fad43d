import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/server/**/*.test.ts', 'test/renderer/**/*.test.ts', 'test/main/**/*.test.ts'],
    environment: 'node',
    // Argon2 hashing and encrypted databases make some tests take seconds on two cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
