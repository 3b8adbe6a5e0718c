/**
 * One client-input API on both eras: elicit/sample/listRoots are real
 * server-to-client requests on 2025-era connections and `input_required`
 * rounds on 2026-07-28, with the same answers, capability refusals and results.
 * (Stateless 2025 HTTP has no channel back to the client, so it is not here.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MCP_ERROR_CODES } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';
import { answerEverything, fullCapabilities, inputServer, type InputLog } from './fixtures.js';

const targets = ALL_TARGETS.filter((t) => t.transport !== 'stateless');
const textOf = (res: { content?: unknown }) => ((res.content as Array<{ text?: string }>)[0]?.text ?? '');

describe.each(targets)('client input on $label', (target) => {
  let server: TestServer;
  let client: Client;
  let asked: string[];
  const log: InputLog = { runs: [] };
  const modern = target.era === '2026';

  beforeAll(async () => {
    server = await startTestServer(inputServer(log), { target });
    client = await server.connect(fullCapabilities, (c) => {
      asked = answerEverything(c).asked;
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('elicits with the handler key and returns the answer; on 2026 the handler runs again with it', async () => {
    log.runs.length = 0;
    asked.length = 0;
    const res = await client.callTool({ name: 'greet_user', arguments: { salutation: 'Hi' } });
    expect(textOf(res)).toBe(`Hi, Ada! (accept, resumed=${modern})`);
    expect(asked).toEqual(['What is your name?']);
    expect(log.runs).toEqual(modern ? ['greet_user', 'greet_user'] : ['greet_user']);
  });

  it('carries earlier answers across rounds (two questions in a row)', async () => {
    const res = await client.callTool({ name: 'two_steps', arguments: {} });
    expect(textOf(res)).toBe('Grace likes teal');
  });

  it('asks for elicitation, sampling and roots together', async () => {
    log.runs.length = 0;
    const res = await client.callTool({ name: 'gather', arguments: {} });
    expect(textOf(res)).toBe('Hi Linus [file:///work]');
    // one input_required round with all three requests, then the run that completes
    expect(log.runs).toEqual(modern ? ['gather', 'gather'] : ['gather']);
  });

  it('still asks when the handler swallowed the stop signal', async () => {
    const res = await client.callTool({ name: 'swallows_signal', arguments: {} });
    expect(textOf(res)).toBe('got Zed');
  });

  it('gives prompts the same client (ctx.client)', async () => {
    const res = await client.getPrompt({ name: 'contextual', arguments: {} });
    expect(res.messages[0]?.content).toEqual({ type: 'text', text: 'Use this context: tests' });
  });

  it('refuses input the client cannot give with -32021, naming the missing capability', async () => {
    const bare = await server.connect({ capabilities: { elicitation: { form: {} } } });
    const err = await expectToolError(bare.callTool({ name: 'needs_sampling', arguments: {} }), MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(err.data).toMatchObject({ requiredCapabilities: { sampling: {} } });
    await expectToolError(bare.callTool({ name: 'gather', arguments: {} }), MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
  });
});
