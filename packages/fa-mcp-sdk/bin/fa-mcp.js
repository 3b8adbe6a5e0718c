#!/usr/bin/env node
// The `fa-mcp` command. A committed file rather than dist/cli/index.js itself, so that a package
// manager linking the workspace before the build (pnpm install on a fresh clone) finds the bin.
import '../dist/cli/index.js';
