/**
 * The walls of the request layer (ARCHITECTURE.md, "One request path"), read
 * off the sources so that a patch slipped in fails here: the SDK is wrapped
 * (wire-adapter.ts), never patched; transport/ names no SDK class; facts
 * travel in the request context and beside the request, never as faked
 * express state or in-band headers; one function decides every route and the
 * fronts of every transport ask it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (a comment may name what the code must not do). */
const code = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const FILES = sources().map((path) => ({ path: relative(SRC, path), text: code(path) }));
const where = (pattern: RegExp, files = FILES) => files.filter((f) => pattern.test(f.text)).map((f) => f.path);

describe('the SDK is wrapped, never patched', () => {
  it('no method of an SDK object is reassigned (connect, send, start, onmessage outside the adapter)', () => {
    expect(where(/\.(connect|send|start)\s*=(?!=)/)).toEqual([]);
    expect(where(/\.onmessage\s*=(?!=)/)).toEqual(['protocol/wire-adapter.ts']);
  });

  it('no property of an SDK object is redefined', () => {
    const defined = FILES.filter((f) => /defineProperty\([^,]*(transport|server|low|onmessage)/i.test(f.text)).map((f) => f.path);
    expect(defined).toEqual([]);
  });

  it('on the server side, the one adapter is the only implementation of the SDK Transport interface besides the codec and legacy SSE', () => {
    // testing/ holds the clients' side (a stream transport for consumers' tests).
    const server = FILES.filter((f) => !f.path.startsWith('testing/'));
    expect(where(/implements Transport\b/, server).sort()).toEqual(['protocol/legacy-sse-transport.ts', 'protocol/sdk-codec.ts', 'protocol/wire-adapter.ts']);
  });
});

describe('transport/ names no SDK class', () => {
  const transport = FILES.filter((f) => f.path.startsWith('transport/'));
  it.each([
    'WebStandardStreamableHTTPServerTransport',
    'createMcpHandler',
    'isLegacyRequest',
    'InMemoryServerEventBus',
    'serveStdio',
    'StdioServerTransport',
    'PerRequestHTTPServerTransport',
    'McpServer',
    'parseJSONRPCMessage',
  ])('%s', (name) => {
    expect(where(new RegExp(`\\b${name}\\b`), transport)).toEqual([]);
  });
});

describe('facts travel in the context, not in faked state', () => {
  it('no request URL or caller is written onto node or express requests', () => {
    expect(where(/\breq\.url\s*=(?!=)/)).toEqual([]);
    // The HTTP guard's own output for the consumer's routes (getRequestAuth, page 04) is the one place.
    expect(where(/\(req as [^)]*\)\.(auth|body)\s*=(?!=)/)).toEqual(['auth/request-auth.ts']);
  });

  it('no in-band header carries what the front established', () => {
    expect(where(/x-fa-mcp-/)).toEqual([]);
    expect(where(/req\.headers\[[^\]]+\]\s*=(?!=)/)).toEqual([]);
  });
});

describe('one place for each cross-cutting record', () => {
  it("a request's observation (request metrics, spans, wire logs) is opened in one module, on every route", () => {
    expect(where(/\b(wire|observer)\.request\(/)).toEqual(['protocol/observe-request.ts']);
  });

  it('the MCP method names are listed once (core/methods.ts); the metrics and the core handlers derive from it', async () => {
    const { MCP_METHODS } = await import('../../src/core/methods.js');
    const { KNOWN_METHODS } = await import('../../src/ops/metrics.js');
    const { CORE_METHODS } = await import('../../src/protocol/core-methods.js');
    expect([...KNOWN_METHODS]).toEqual([...MCP_METHODS]);
    expect(CORE_METHODS.every((m) => (MCP_METHODS as readonly string[]).includes(m))).toBe(true);
    // An array of four or more method names spelled out anywhere in the sources is a second list
    // (a pipeline step's `methods`, the operations it applies to, is a choice, not a list of them all).
    expect(where(/(?<!methods:\s*)\[\s*(?:'(?:tools|prompts|resources|tasks|completion|logging|server|subscriptions)\/[A-Za-z/]+',\s*){4,}/)).toEqual([]);
  });
});

describe('one decision', () => {
  it('decideRoute is asked by the front of every transport, and only there', () => {
    expect(where(/\bdecideRoute\(/).filter((p) => p !== 'protocol/route.ts').sort()).toEqual([
      'transport/http/legacy-sse-routes.ts',
      'transport/http/mcp-endpoint.ts',
      'transport/stdio-cold-front.ts',
    ]);
  });

  it('no replay of a request after it ran', () => {
    expect(where(/ReplayBook|\.replay\(/)).toEqual([]);
  });
});
