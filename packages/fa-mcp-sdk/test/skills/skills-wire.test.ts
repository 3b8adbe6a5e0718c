/**
 * The Skills extension (SEP-2640) on every transport and protocol era, read
 * with the official client's SkillsClient, which checks each entry against the
 * extension's schema and each file against its digest, size and front matter.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import * as z from 'zod/v4';
import { MCP_ERROR_CODES, SKILLS_EXTENSION_ID, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';

const SKILLS_DIR = join(__dirname, 'fixtures', 'skills');

export const skillsServer = (): McpServerData => ({
  tools: [{ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [{ type: 'text', text: 'ok' }] }) }],
  skills: SKILLS_DIR,
  instructions: { opening: 'Start with noop.' },
});

describe.each(ALL_TARGETS)('skills extension on $label', (target) => {
  let server: TestServer;
  let client: Client;
  let skills: SkillsClient;

  beforeAll(async () => {
    server = await startTestServer(skillsServer(), { target });
    client = await server.connect();
    skills = new SkillsClient(client);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('declares the extension with directoryRead beside the resources capability', () => {
    const caps = client.getServerCapabilities();
    expect(caps?.extensions?.[SKILLS_EXTENSION_ID]).toEqual({ directoryRead: true });
    expect(caps?.resources).toBeDefined();
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
  });

  it('lists every skill with its front matter verbatim and a complete file manifest', async () => {
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(['skill://code-review/SKILL.md', 'skill://release-notes/SKILL.md']);
    const notes = listing.skills[1]!;
    expect(notes.frontmatter).toEqual({
      name: 'release-notes',
      description: "Write the release notes of a version from the merged changes, in the project's changelog format.",
      license: 'MIT',
      metadata: { audience: 'maintainers', version: '2' },
    });
    expect(notes.resources).toEqual([
      expect.objectContaining({ uri: 'skill://release-notes/SKILL.md' }),
      expect.objectContaining({ uri: 'skill://release-notes/references/checklist.md' }),
      expect.objectContaining({ uri: 'skill://release-notes/references/template.md' }),
    ]);
    if (target.era === '2026') expect(listing).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    else expect(listing.ttlMs).toBeUndefined();
  });

  it('serves each file so its digest, size and front matter verify', async () => {
    const { skills: all } = await skills.list();
    const notes = all.find((s) => s.frontmatter.name === 'release-notes')!;
    const md = await skills.read(notes);
    expect(md.verified).toBe(true);
    expect(md.frontmatter?.name).toBe('release-notes');
    const ref = await skills.read(notes, 'skill://release-notes/references/checklist.md');
    expect(ref.verified).toBe(true);
    const digest = `sha256:${createHash('sha256').update(ref.bytes).digest('hex')}`;
    expect(notes.resources).toContainEqual({ uri: ref.uri, digest, size: ref.bytes.length });
  });

  it('gets one skill by its SKILL.md URI and refuses any other URI with -32602', async () => {
    const got = await skills.get('skill://code-review/SKILL.md');
    expect(got.skill.frontmatter.name).toBe('code-review');
    expect(got).not.toHaveProperty('nextCursor');
    await expectToolError(skills.get('skill://no-such-skill/SKILL.md'), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(skills.get('skill://code-review/references/guide.md'), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('reads skill folders as directories and refuses a file with -32602', async () => {
    const root = await skills.readDirectory('skill://release-notes');
    expect(root.resources).toEqual([
      expect.objectContaining({ uri: 'skill://release-notes/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' }),
      { uri: 'skill://release-notes/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    const refs = await skills.readDirectory('skill://release-notes/references');
    expect(refs.resources.map((r) => r.name)).toEqual(['checklist.md', 'template.md']);
    await expectToolError(skills.readDirectory('skill://release-notes/SKILL.md'), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(skills.readDirectory('skill://nothing-here'), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('refuses malformed params of the extension methods with -32602', async () => {
    const anything = z.looseObject({});
    await expectToolError(client.request({ method: 'skills/get', params: {} }, anything), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(client.request({ method: 'skills/get', params: { uri: 42 } }, anything), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(client.request({ method: 'skills/list', params: { cursor: 'forged' } }, anything), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('lists each SKILL.md as a resource named and described by its front matter', async () => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === 'skill://code-review/SKILL.md')).toMatchObject({
      name: 'code-review',
      description: 'Review a change for correctness, tests and naming before it is merged.',
      mimeType: 'text/markdown',
    });
    const read = await client.readResource({ uri: 'skill://code-review/references/guide.md' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('Correctness first') });
  });

  it('offers the references template with completion of both arguments', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('skill://{skill}/references/{reference}');
    const ref = { type: 'ref/resource' as const, uri: 'skill://{skill}/references/{reference}' };
    const skill = await client.complete({ ref, argument: { name: 'skill', value: 're' } });
    expect(skill.completion.values).toEqual(['release-notes']);
    const inSkill = await client.complete({ ref, argument: { name: 'reference', value: '' }, context: { arguments: { skill: 'release-notes' } } });
    expect(inSkill.completion.values).toEqual(['checklist.md', 'template.md']);
    const anywhere = await client.complete({ ref, argument: { name: 'reference', value: 'g' } });
    expect(anywhere.completion.values).toEqual(['guide.md']);
  });

  it('names the skills in the instructions', () => {
    const text = client.getInstructions() ?? '';
    expect(text.startsWith('Start with noop.')).toBe(true);
    expect(text).toContain('read its skill://<name>/SKILL.md');
    expect(text).toContain('- release-notes: Write the release notes');
  });
});

describe('skills under a scheme of the server', () => {
  it('serves typo3://skill/<name>/SKILL.md and the typo3://skill/{skill}/references/{reference} template', async () => {
    const server = await startTestServer({ skills: { dir: SKILLS_DIR, baseUri: 'typo3://skill', cacheHint: { ttlMs: 60_000, cacheScope: 'public' } } }, { target: ALL_TARGETS.find((t) => t.label === 'http/2026') });
    try {
      const client = await server.connect();
      const skills = new SkillsClient(client);
      const listing = await skills.list();
      expect(listing).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
      expect(listing.skills.map((s) => s.uri)).toEqual(['typo3://skill/code-review/SKILL.md', 'typo3://skill/release-notes/SKILL.md']);
      expect((await skills.read(listing.skills[0]!, 'typo3://skill/code-review/references/guide.md')).verified).toBe(true);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['typo3://skill/{skill}/references/{reference}']);
      expect((await skills.readDirectory('typo3://skill')).resources.map((r) => r.uri)).toEqual(['typo3://skill/code-review', 'typo3://skill/release-notes']);
      expect(client.getInstructions()).toContain('read its typo3://skill/<name>/SKILL.md');
    } finally {
      await server.stop();
    }
  });

  it('refuses a cache hint that is not a non-negative integer and public or private', async () => {
    await expect(startTestServer({ skills: { dir: SKILLS_DIR, cacheHint: { ttlMs: -1 } } })).rejects.toThrow(/cacheHint/);
  });
});
