import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test starts a real server on a free loopback port.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
