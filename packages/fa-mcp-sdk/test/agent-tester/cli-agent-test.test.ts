/**
 * `fa-mcp agent-test` end to end: in process with --server (the fixture module started with the
 * Agent Tester on) and with --url (a running server), and, when the library is built, the real
 * `fa-mcp` bin as a child process. The model is the scripted loopback server.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { agentTest } from '../../src/cli/commands/agent-test.js';
import { contractSnapshot } from '../../src/cli/commands/contract.js';
import { runCli } from '../../src/cli/program.js';
import type { AgentTrace } from '../../src/agent-tester/trace-types.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { answerFromToolResult, askTool, closedPort, startScriptedModel, type ScriptedModel } from './scripted-model.js';
import { startTester, type TesterServer } from './helpers.js';
import { sdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';

const FIXTURE = fileURLToPath(new URL('./fixtures/server-data.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url));

describe('fa-mcp agent-test', () => {
  let model: ScriptedModel;
  beforeAll(async () => void (model = await startScriptedModel()));
  afterAll(async () => void (await model?.close()));

  it('--server starts the module with the Agent Tester on and prints the JSON trace (exit 0)', async () => {
    model.script([askTool('get_weather', { city: 'Oslo' }), answerFromToolResult('CLI: ')]);
    const io = recordingIo();
    const code = await runCommand(io, () => agentTest(io, 'Weather in Oslo?', { server: FIXTURE, baseUrl: model.baseUrl, model: 'cli-model' }));
    expect(io.stderr).toBe('');
    expect(code).toBe(0);
    const trace = JSON.parse(io.stdout) as AgentTrace;
    expect(trace).toMatchObject({ prompt: 'Weather in Oslo?', model: 'cli-model', stopReason: 'answer', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' }, isError: false }] });
    expect(trace.finalAnswer).toContain('CLI: ');
    expect(trace.finalAnswer).toContain('Weather in Oslo: 21 C, sunny');
  });

  it('--pretty prints a summary; a conversation without an answer exits 1', async () => {
    model.script([askTool('broken_tool', {}), answerFromToolResult()]);
    const io = recordingIo();
    expect(await runCli(['node', 'fa-mcp', 'agent-test', 'break it', '--server', FIXTURE, '--base-url', model.baseUrl, '--pretty'], () => io)).toBe(0);
    expect(io.stdout).toContain('stop: answer');
    expect(io.stdout).toMatch(/1\. \[turn 1\] broken_tool \{\} -> error: the backend is down/);
    expect(io.stdout).toContain('answer:\n  The tool said: Tool error: the backend is down');

    model.script([() => ({ status: 500, body: { error: 'down' } })]);
    const failed = recordingIo();
    expect(await runCli(['node', 'fa-mcp', 'agent-test', 'hi', '--server', FIXTURE, '--base-url', model.baseUrl], () => failed)).toBe(1);
    expect((JSON.parse(failed.stdout) as AgentTrace).stopReason).toBe('modelError');
    expect(failed.stderr).toMatch(/no answer \(modelError\): The model endpoint answered HTTP 500/);
  });

  it('--max-turns is passed on', async () => {
    model.script([askTool('get_weather', { city: 'A' }), askTool('get_weather', { city: 'B' })]);
    const io = recordingIo();
    expect(await runCli(['node', 'fa-mcp', 'agent-test', 'loop', '--server', FIXTURE, '--base-url', model.baseUrl, '--max-turns', '1'], () => io)).toBe(1);
    expect((JSON.parse(io.stdout) as AgentTrace).stopReason).toBe('maxTurns');
  });

  it('refuses unusable options with exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['hi'], /--server <module exporting McpServerData> or --url/],
      [['hi', '--server', FIXTURE, '--url', 'http://127.0.0.1:1/agent-tester'], /--server .* or --url/],
      [['hi', '--server', FIXTURE, '--max-turns', '0'], /--max-turns must be a positive integer/],
      [['hi', '--url', 'http://127.0.0.1:1/agent-tester', '--model', 'x'], /apply to a server started with --server/],
      [['  ', '--server', FIXTURE], /give the prompt/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo();
      expect(await runCli(['node', 'fa-mcp', 'agent-test', ...args], () => io), args.join(' ')).toBe(2);
      expect(io.stderr).toMatch(message);
    }
  });

  describe('--url: a running server', () => {
    const TOKEN = 'cli-agent-token-0123456789abcdefghijkl';
    let server: TesterServer;
    beforeAll(async () => void (server = await startTester(model.baseUrl, { webServer: { auth: { enabled: true, permanentServerTokens: [TOKEN] } } })));
    afterAll(async () => void (await server?.stop()));

    it('with --token (or FA_MCP_TOKEN) runs the conversation there', async () => {
      model.script([askTool('get_weather', { city: 'Rome' }), answerFromToolResult()]);
      const io = recordingIo();
      expect(await runCli(['node', 'fa-mcp', 'agent-test', 'Rome?', '--url', server.tester, '--token', TOKEN], () => io)).toBe(0);
      expect((JSON.parse(io.stdout) as AgentTrace).toolCalls[0]).toMatchObject({ name: 'get_weather', arguments: { city: 'Rome' } });

      model.script([askTool('get_weather', { city: 'Paris' }), answerFromToolResult()]);
      const fromEnv = recordingIo();
      fromEnv.env = { FA_MCP_TOKEN: TOKEN };
      expect(await runCli(['node', 'fa-mcp', 'agent-test', 'Paris?', '--url', `${server.tester}/`], () => fromEnv)).toBe(0);
    });

    it('without a token: the 401 is reported with exit 2; a closed port too', async () => {
      const io = recordingIo();
      expect(await runCli(['node', 'fa-mcp', 'agent-test', 'hi', '--url', server.tester], () => io)).toBe(2);
      expect(io.stderr).toMatch(/answered HTTP 401/);
      const port = await closedPort();
      const down = recordingIo();
      expect(await runCli(['node', 'fa-mcp', 'agent-test', 'hi', '--url', `http://127.0.0.1:${port}/agent-tester`], () => down)).toBe(2);
      expect(down.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+\/agent-tester\/api\/chat\/test: ECONNREFUSED/);
    });
  });

  it('contract snapshot never records the Agent Tester routes, even in development', async () => {
    const io = recordingIo();
    expect(await runCommand(io, () => contractSnapshot(io, { server: FIXTURE, nodeEnv: 'development' }))).toBe(0);
    const snap = JSON.parse(readFileSync(join(io.cwd, 'contract.json'), 'utf8')) as { endpoints: Array<{ path: string }> };
    expect(snap.endpoints.map((e) => e.path)).toContain('/mcp');
    expect(snap.endpoints.filter((e) => e.path.startsWith('/agent-tester'))).toEqual([]);
  });

  it.skipIf(!sdkBuildIsCurrent())('the built bin runs it as a child process (dist/cli/index.js)', async () => {
    model.script([askTool('get_weather', { city: 'Kyiv' }), answerFromToolResult('bin: ')]);
    // spawn, not spawnSync: the scripted model answering the child lives in this process's event loop.
    const child = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn(process.execPath, [BIN, 'agent-test', 'Kyiv?', '--server', FIXTURE, '--base-url', model.baseUrl, '--pretty'], { env: { ...process.env, NODE_ENV: 'production' } });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      p.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('get_weather {"city":"Kyiv"} -> ok');
    expect(child.stdout).toContain('bin: ');
  });
});
