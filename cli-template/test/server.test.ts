/** Prompts, resources and server information, through the official MCP client over HTTP. */
import { startTestServer, type TestServer } from 'fa-mcp-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../src/server-info.js';
import { testInit, testServerData, type TestClient } from './helpers.js';

describe('server', () => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer(testServerData(), testInit);
    client = await server.connect();
  });
  afterAll(() => server?.stop());

  it('introduces itself with the product name', () => {
    expect(client.getServerVersion()?.title).toBe(PRODUCT_NAME);
  });

  it('offers agent_brief, agent_prompt and explain_conversion', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['agent_brief', 'agent_prompt', 'explain_conversion']));
    const brief = await client.getPrompt({ name: 'agent_brief' });
    expect(JSON.stringify(brief.messages)).toContain(PRODUCT_NAME);
    const explained = await client.getPrompt({ name: 'explain_conversion', arguments: { value: '20', from: 'celsius', to: 'kelvin' } });
    expect(JSON.stringify(explained.messages)).toContain('20 celsius to kelvin');
  });

  it('completes the unit argument of explain_conversion', async () => {
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'explain_conversion' },
      argument: { name: 'from', value: 'ke' },
    });
    expect(done.completion.values).toEqual(['kelvin']);
  });

  it('serves temperature://units and the built-in project://version', async () => {
    const text = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      const first = contents[0];
      return first && 'text' in first ? first.text : '';
    };
    expect(JSON.parse(await text('temperature://units'))).toEqual({ units: ['celsius', 'fahrenheit', 'kelvin'] });
    expect(JSON.parse(await text('project://version'))).toMatchObject({ sdk: { name: 'fa-mcp-sdk' } });
  });
});
