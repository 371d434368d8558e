import { defineConfig } from 'vitest/config';

/**
 * Unit tests of the dashboard's pure logic (`npm run test:unit`, also run by `npm test`): files named
 * `*.test.ts` beside the code in src/. The browser tests are Playwright's (test/*.spec.ts), never
 * collected here. Node, no DOM: what is tested here needs none.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
