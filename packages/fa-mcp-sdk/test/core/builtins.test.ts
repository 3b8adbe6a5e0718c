import { describe, expect, it } from 'vitest';
import { builtinPrompts, builtinResources, uriSchemeOf, type BuiltinsInput } from '../../src/core/builtins.js';
import { Registry } from '../../src/core/registry.js';
import { readResource } from '../../src/core/resources.js';
import { renderPrompt } from '../../src/core/prompts.js';
import type { IResourceData } from '../../src/core/types.js';
import { makeCtx } from './helpers.js';

const input = (over: Partial<BuiltinsInput> = {}): BuiltinsInput => ({
  serverName: 'weather-server',
  serverVersion: '1.2.3',
  sdkVersion: '0.1.0',
  authDescription: () => ({ required: true, schemes: ['bearer'] }),
  ...over,
});

async function read(resources: IResourceData[], uri: string) {
  const [c] = await readResource(new Registry({ resources }), uri, makeCtx());
  return c;
}

describe('built-in resources', () => {
  it('project://version is JSON with name, version, sdk and node', async () => {
    const c = await read(builtinResources(input(), new Set()), 'project://version');
    expect(c?.mimeType).toBe('application/json');
    expect(JSON.parse(c?.text ?? '')).toEqual({
      name: 'weather-server',
      version: '1.2.3',
      sdk: { name: 'fa-mcp-sdk', version: '0.1.0' },
      node: process.version,
    });
  });

  it('use://auth is the auth description, read at call time', async () => {
    let schemes = ['bearer'];
    const list = builtinResources(input({ authDescription: () => ({ required: true, schemes }) }), new Set());
    schemes = ['bearer', 'basic'];
    const c = await read(list, 'use://auth');
    expect(JSON.parse(c?.text ?? '')).toEqual({ required: true, schemes: ['bearer', 'basic'] });
  });

  it('agent brief/prompt resources exist only when their text is given', () => {
    expect(builtinResources(input(), new Set()).map((r) => r.uri)).toEqual(['project://version', 'use://auth']);
    const uris = builtinResources(input({ agentBrief: 'Brief.', agentPrompt: 'Prompt.' }), new Set()).map((r) => r.uri);
    expect(uris).toEqual(['project://version', 'use://auth', 'weather-server://agent/brief', 'weather-server://agent/prompt']);
  });

  it('a consumer resource with the same uri wins', () => {
    const uris = builtinResources(input({ agentBrief: 'B' }), new Set(['project://version', 'weather-server://agent/brief'])).map((r) => r.uri);
    expect(uris).toEqual(['use://auth']);
  });

  it('the listed built-ins carry no secrets of the auth description function', () => {
    const list = builtinResources(input(), new Set());
    expect(JSON.stringify(list)).not.toContain('bearer');
  });
});

describe('built-in prompts', () => {
  it('agent_brief and agent_prompt only when their text is given', async () => {
    expect(builtinPrompts(input(), new Set())).toEqual([]);
    expect(builtinPrompts(input({ agentBrief: 'Brief.' }), new Set()).map((p) => p.name)).toEqual(['agent_brief']);
    const both = builtinPrompts(input({ agentBrief: 'Brief.', agentPrompt: 'You are...' }), new Set());
    expect(both.map((p) => p.name)).toEqual(['agent_brief', 'agent_prompt']);
    const rendered = await renderPrompt(both[1] as (typeof both)[number], {}, makeCtx());
    expect(rendered.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'You are...' } }]);
  });

  it('a consumer prompt with the same name wins', () => {
    expect(builtinPrompts(input({ agentBrief: 'B', agentPrompt: 'P' }), new Set(['agent_brief'])).map((p) => p.name)).toEqual(['agent_prompt']);
  });
});

describe('uriSchemeOf', () => {
  it.each([
    ['weather-server', 'weather-server'],
    ['My Server', 'my-server'],
    ['@acme/tools', 'tools'],
    ['1st-server', 'mcp-1st-server'],
    ['a_b', 'a-b'],
  ])('%j -> %j', (name, scheme) => {
    expect(uriSchemeOf(name)).toBe(scheme);
    expect(scheme).toMatch(/^[a-z][a-z0-9+.-]*$/);
  });
});
