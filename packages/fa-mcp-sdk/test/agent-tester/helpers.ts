/** Starts the fixture server with the Agent Tester on, pointed at a scripted model. */
import { initMcpServer, type McpServerHandle } from '../../src/init-mcp-server.js';
import type { AgentTrace } from '../../src/agent-tester/trace-types.js';
import { serverData } from './fixtures/server-data.mjs';

export const API_KEY = 'sk-test-secret-key-0123456789abcdef';

export interface TesterServer {
  handle: McpServerHandle;
  base: string;
  /** `<base>/agent-tester` */
  tester: string;
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;

function merge(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? merge(out[k] as Json, v as Json) : v;
  }
  return out;
}

export async function startTester(modelBaseUrl: string, config: Json = {}, nodeEnv = 'development'): Promise<TesterServer> {
  const base: Json = {
    logger: { level: 'silent' },
    webServer: { host: '127.0.0.1', port: 0 },
    agentTester: { model: { baseUrl: modelBaseUrl, model: 'scripted-model', apiKey: API_KEY, timeoutMs: 5000 } },
  };
  const handle = await initMcpServer(serverData, { cwd: '/nonexistent-agent-tester', nodeEnv, handleSignals: false, config: merge(base, config) });
  const origin = new URL(handle.url as string).origin;
  return { handle, base: origin, tester: `${origin}/agent-tester`, stop: async () => void (await handle.stop('test done')) };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; text: string; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // not JSON: the test reads text
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function chatTest(tester: string, body: Json, headers: Record<string, string> = {}): Promise<AgentTrace> {
  const res = await postJson(`${tester}/api/chat/test`, body, headers);
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text}`);
  return res.json as unknown as AgentTrace;
}
