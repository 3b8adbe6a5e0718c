#!/usr/bin/env node
// Bundles the forecast view (src/view/forecast-view.ts and the App class of
// @modelcontextprotocol/ext-apps) into one self-contained HTML file,
// dist/forecast.html: the form an MCP Apps host loads into its sandboxed iframe.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLACEHOLDER = '<!-- forecast-view.js -->';

const result = await build({
  entryPoints: [join(root, 'src', 'view', 'forecast-view.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const bundle = result.outputFiles?.[0];
if (!bundle) throw new Error('esbuild produced no output for src/view/forecast-view.ts');
// Inline scripts end at the first "</script": keep the bundle from containing one.
const code = bundle.text.replaceAll('</script', '<\\/script');
const template = readFileSync(join(root, 'src', 'view', 'forecast.html'), 'utf8');
if (!template.includes(PLACEHOLDER)) throw new Error(`src/view/forecast.html has no ${PLACEHOLDER} placeholder`);
const html = template.replace(PLACEHOLDER, () => `<script type="module">${code}</script>`);
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'forecast.html'), html);
console.log(`dist/forecast.html: ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB`);
