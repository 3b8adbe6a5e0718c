// The fa-mcp-sdk build the child-process tests, the examples and the CLI tests
// run: current or not, as ci-checks.mjs buildIsCurrent() decides.
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './ci-checks.mjs';

const SDK = fileURLToPath(new URL('../../packages/fa-mcp-sdk/', import.meta.url));

/** True when packages/fa-mcp-sdk/dist is built and newer than src/; throws when stale (or missing in CI); false (skip) when missing elsewhere. */
export function sdkBuildIsCurrent(env = process.env) {
  return buildIsCurrent(
    {
      name: 'fa-mcp-sdk',
      built: [`${SDK}dist/index.js`, `${SDK}dist/index.cjs`, `${SDK}dist/cli/index.js`],
      sources: [`${SDK}src`],
      rebuild: 'pnpm run build (at the repository root)',
    },
    env,
  );
}

/** For tests that cannot run without the build (child processes, the examples): throws when it is missing or stale, in CI or not. */
export function assertSdkBuildIsCurrent() {
  sdkBuildIsCurrent({ ...process.env, CI: 'true' });
}
