// Cold start of each framework, as a user's process pays it: the time to import the framework's
// main module, and the time from spawning a stdio server to the answer of its first tools/list
// (initialize, notifications/initialized and tools/list written at once). Medians of `runs`.
// Each server is a module evaluated with `node --input-type=module` in the folder where its
// packages resolve: fa-mcp-sdk's built dist (the package the user installs), SDK v2 from the
// library's dependencies, SDK v1 and fastmcp from the bench-only peers package.
import { spawn } from 'node:child_process';
import { SDK_DIR } from './paths.mjs';
import { PEERS_DIR } from './peers.mjs';

const ECHO = `{ type: 'object', properties: { text: { type: 'string', maxLength: 1000 } }, required: ['text'], additionalProperties: false }`;

export const COLD_SERVERS = [
  {
    id: 'fa-off',
    label: 'fa-mcp-sdk',
    cwd: SDK_DIR,
    module: 'fa-mcp-sdk',
    stdio: `import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join } from 'node:path';
      import { initMcpServer } from 'fa-mcp-sdk';
      await initMcpServer({ serverInfo: { name: 'cold', version: '1.0.0' }, tools: [{ name: 'echo', description: 'Echoes its text.', inputSchema: ${ECHO},
        handler: async ({ arguments: a }) => ({ content: [{ type: 'text', text: String(a.text) }] }) }] },
        { cwd: mkdtempSync(join(tmpdir(), 'fa-mcp-cold-')), env: {}, nodeEnv: 'production', handleSignals: false, config: { logger: { level: 'warn' }, mcp: { transportType: 'stdio' } } });`,
  },
  {
    id: 'bare',
    label: 'SDK v2 2.4.0',
    cwd: SDK_DIR,
    module: '@modelcontextprotocol/server',
    stdio: `import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server'; import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
      const server = new McpServer({ name: 'cold', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('echo', { description: 'Echoes its text.', inputSchema: fromJsonSchema(${ECHO}) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      await server.connect(new StdioServerTransport());`,
  },
  {
    id: 'sdk-v1',
    label: 'SDK v1 1.32.2',
    cwd: PEERS_DIR,
    module: '@modelcontextprotocol/sdk/server/mcp.js',
    stdio: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'; import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'; import { z } from 'zod';
      const server = new McpServer({ name: 'cold', version: '1.0.0' });
      server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string().max(1000) } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      await server.connect(new StdioServerTransport());`,
  },
  {
    id: 'fastmcp',
    label: 'fastmcp 4.20.16',
    cwd: PEERS_DIR,
    module: 'fastmcp',
    stdio: `import { FastMCP } from 'fastmcp'; import { z } from 'zod';
      const quiet = () => {};
      const server = new FastMCP({ name: 'cold', version: '1.0.0', logger: { debug: quiet, info: quiet, log: quiet, warn: quiet, error: console.error } });
      server.addTool({ name: 'echo', description: 'Echoes its text.', parameters: z.object({ text: z.string().max(1000) }), execute: async ({ text }) => text });
      await server.start({ transportType: 'stdio' });`,
  },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function evalModule(cwd, code, { input } = {}) {
  return spawn(process.execPath, ['--input-type=module', '-e', code], { cwd, env: { PATH: process.env.PATH, NODE_ENV: 'production' }, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
}

function collect(child, until, timeoutMs) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer within ${timeoutMs} ms; stderr: ${err.slice(0, 300)}`));
    }, timeoutMs);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const found = until(out);
      if (found !== undefined) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const found = until(out);
      if (found !== undefined) resolve(found);
      else reject(new Error(`exited with ${code} before answering; stderr: ${err.slice(0, 300)}`));
    });
  });
}

async function importMs(server) {
  const code = `const t0 = performance.now(); await import(${JSON.stringify(server.module)}); process.stdout.write('ms=' + (performance.now() - t0).toFixed(1) + '\\n');`;
  return collect(evalModule(server.cwd, code), (out) => (/ms=([\d.]+)\n/.exec(out) ? Number(/ms=([\d.]+)\n/.exec(out)[1]) : undefined), 30_000);
}

const LINES = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fa-mcp-bench', version: '1.0.0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
].map((m) => `${JSON.stringify(m)}\n`).join('');

async function firstToolsListMs(server) {
  const t0 = performance.now();
  const child = evalModule(server.cwd, server.stdio, { input: true });
  child.stdin.on('error', () => {});
  child.stdin.write(LINES);
  return collect(
    child,
    (out) => {
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        const msg = JSON.parse(line);
        if (msg.id === 2) {
          if (!msg.result?.tools?.some((t) => t.name === 'echo')) throw new Error(`tools/list answered ${line.slice(0, 200)}`);
          return performance.now() - t0;
        }
      }
      return undefined;
    },
    30_000,
  );
}

/** Node's own start with nothing imported: what every figure below includes. */
async function nodeStartMs() {
  const t0 = performance.now();
  await collect(evalModule(SDK_DIR, `process.stdout.write('up\\n')`), (out) => (out.includes('up\n') ? true : undefined), 30_000);
  return performance.now() - t0;
}

export async function coldStart({ runs = 10, log = console.log } = {}) {
  const rows = [];
  const node = [];
  for (let i = 0; i < runs; i++) node.push(await nodeStartMs());
  for (const server of COLD_SERVERS) {
    const imports = [];
    const lists = [];
    // Alternate the two measures so a noisy second hurts both alike.
    for (let i = 0; i < runs; i++) {
      imports.push(await importMs(server));
      lists.push(await firstToolsListMs(server));
    }
    const row = { server: server.id, label: server.label, importMs: Math.round(median(imports)), firstToolsListMs: Math.round(median(lists)) };
    log(`cold start ${server.label}: import ${row.importMs} ms, first tools/list over stdio ${row.firstToolsListMs} ms (medians of ${runs})`);
    rows.push(row);
  }
  return { runs, nodeStartMs: Math.round(median(node)), rows };
}
