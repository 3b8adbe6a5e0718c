// Preload for Node 20 (`node --import ./globsync-loader.mjs ...`): gives `fs` a
// `globSync`, which Node only ships from 22. The conformance suite imports it
// by name (`import { globSync } from "fs"`), and a builtin's named exports are
// fixed when it first loads, so ESM imports of fs are redirected to a shim that
// re-exports fs with globSync added. CommonJS users get it on the fs object.
import { createRequire, register } from 'node:module';
import { globSync } from './fs-globsync.mjs';

register('./globsync-hooks.mjs', import.meta.url);

const fs = createRequire(import.meta.url)('node:fs');
if (typeof fs.globSync !== 'function') fs.globSync = globSync;
