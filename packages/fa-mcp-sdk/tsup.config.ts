import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'db/index': 'src/db/index.ts',
    'stores/index': 'src/stores/index.ts',
    'agent-tester/index': 'src/agent-tester/index.ts',
    // the `fa-mcp` bin (package.json "bin")
    'cli/index': 'src/cli/index.ts',
    // internal: the ajv setup scripts/build-config-validator.mjs precompiles the configuration schema with
    'config/validator-setup': 'src/config/validator-setup.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // One copy of each module shared by every entry point: an error class thrown by a consumer's code
  // (imported from 'fa-mcp-sdk') must be the one the server started by 'fa-mcp-sdk/testing' checks.
  splitting: true,
  shims: true,
});
