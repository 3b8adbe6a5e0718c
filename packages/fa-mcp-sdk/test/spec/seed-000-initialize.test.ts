/**
 * Specification seed 000: the initialize answer of a production server built on
 * the framework, reproduced member by member through the public API. The
 * server declares what it does: its lists, completions and the skills
 * extension, and no listChanged, logging or subscribe (nothing changes a list,
 * nothing logs to the client, no resource update leaves it). The same
 * capabilities and instructions stand in the 2026-07-28 server/discover answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { SEED_DIR, seedServerData } from './seed-000-server.js';

interface SeedIcon {
  src: string;
  mimeType: string;
  sizes: string[];
}
const seed = JSON.parse(readFileSync(join(SEED_DIR, 'initialize.json'), 'utf8')) as {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown> & { icons: SeedIcon[] };
  instructionsBudget: number;
  instructionsLength: number;
  resourceTemplate: string;
};

const stdio2025 = { transport: 'stdio', era: '2025', label: 'stdio/2025' } as const;
const stdio2026 = { transport: 'stdio', era: '2026', label: 'stdio/2026' } as const;
const DATA_SVG = 'data:image/svg+xml;base64,';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('seed 000: the initialize result', () => {
  it('is the seed\'s, member by member', async () => {
    server = await startTestServer(seedServerData(), { target: stdio2025 });
    const client = await server.connect();

    expect(client.getNegotiatedProtocolVersion()).toBe(seed.protocolVersion);

    const capabilities = client.getServerCapabilities() as Record<string, unknown>;
    expect(Object.keys(capabilities).sort()).toEqual(Object.keys(seed.capabilities).sort());
    for (const [member, value] of Object.entries(seed.capabilities)) expect(capabilities[member], `capabilities.${member}`).toEqual(value);

    const info = client.getServerVersion() as Record<string, unknown> & { icons: SeedIcon[] };
    expect(Object.keys(info).sort()).toEqual(Object.keys(seed.serverInfo).sort());
    for (const [member, value] of Object.entries(seed.serverInfo)) {
      if (member !== 'icons') expect(info[member], `serverInfo.${member}`).toEqual(value);
    }
    // The seed shortens the sources; each is an SVG file of the project as base64 in a data: URI.
    expect(info.icons).toHaveLength(seed.serverInfo.icons.length);
    info.icons.forEach((icon, i) => {
      const { src: _shortened, ...rest } = seed.serverInfo.icons[i] as SeedIcon;
      expect(icon).toEqual({ ...rest, src: expect.stringMatching(/^data:image\/svg\+xml;base64,/) });
      const file = i === 0 ? 'signet-s.svg' : 'signet-l.svg';
      expect(Buffer.from(icon.src.slice(DATA_SVG.length), 'base64').toString('utf8')).toBe(readFileSync(join(SEED_DIR, 'images', file), 'utf8'));
    });

    const instructions = client.getInstructions() ?? '';
    expect(instructions.length).toBe(seed.instructionsLength);
    expect(instructions.length).toBeLessThanOrEqual(seed.instructionsBudget);
    expect(instructions.startsWith('Start every task with typo3_project_describe.')).toBe(true);
    expect(instructions).toContain('What to call for what:\n- backend markup or a CSS class: typo3_component_lookup with the targetVersion');
  });

  it('serves what it declares and nothing it does not: completions, the template, no setLevel, no subscribe, no directory reads', async () => {
    server = await startTestServer(seedServerData(), { target: stdio2025 });
    const client = await server.connect();

    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain(seed.resourceTemplate);

    const keyword = await client.complete({ ref: { type: 'ref/prompt', name: 'commit_message' }, argument: { name: 'keyword', value: 'F' } });
    expect(keyword.completion.values).toEqual(['FEATURE']);
    const workflow = await client.complete({ ref: { type: 'ref/prompt', name: 'commit_message' }, argument: { name: 'workflow', value: '' } });
    expect(workflow.completion.values).toEqual(['core', 'extension']);

    // Undeclared, so not served: the methods answer "method not found".
    await expect(client.setLoggingLevel('debug')).rejects.toMatchObject({ code: -32601 });
    await expect(client.subscribeResource({ uri: 'typo3://skill/typo3-task-start/SKILL.md' })).rejects.toMatchObject({ code: -32601 });
    const wire = server.wire2026();
    await expect(wire.request('resources/directory/read', { uri: 'typo3://skill/typo3-task-start' })).rejects.toMatchObject({ code: -32601 });
    // skills/list is served, as the extension requires.
    const skills = (await wire.request('skills/list', {})) as { skills: Array<{ uri: string }> };
    expect(skills.skills.map((s) => s.uri)).toEqual(['typo3://skill/typo3-task-start/SKILL.md']);

    // The handle refuses notifications the server does not declare, instead of sending them.
    await expect(server.handle.notifyListChanged('tools')).rejects.toThrow(/does not declare tools\.listChanged/);
    await expect(server.handle.notifyResourceUpdated('typo3://skill/typo3-task-start/SKILL.md')).rejects.toThrow(/does not declare resources\.subscribe/);
  });

  it('answers server/discover on 2026-07-28 with the same capabilities and instructions', async () => {
    server = await startTestServer(seedServerData(), { target: stdio2026 });
    const discover = await server.wire2026().request('server/discover');
    expect(discover.capabilities).toEqual(seed.capabilities);
    expect((discover.instructions as string).length).toBe(seed.instructionsLength);
  });
});
