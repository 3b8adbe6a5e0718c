/**
 * gzip-file-as-resource (both eras): fetches a URL or data URI within the configured limits,
 * gzips it and returns a resource_link (default) or the inline resource. The resource is
 * registered for the caller: a resource of the 2025-era session at
 * demo://resource/session/<name> (`session.resources`: listed and read in that session only,
 * until it ends), or for a 2026-07-28 client a minted resource demo://resource/minted/<id>/<name>
 * (`mintResource`: readable by anyone holding the URI for ten minutes).
 */
import { gzipSync } from 'node:zlib';
import { formatContentResult, mintResource, resourceLinkContent, ToolExecutionError, type IContentBlock, type IResourceLinkContent } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { ICONS } from '../server/icons.js';
import { defineTool } from './define.js';
import { fetchData } from './fetch-data.js';

const MIME = 'application/gzip';
export const SESSION_RESOURCE_PREFIX = 'demo://resource/session/';

export function gzipFileAsResource(rt: EverythingRuntime) {
  return defineTool('both', {
    name: 'gzip-file-as-resource',
    title: 'Gzip file as resource',
    description:
      'Compresses a file (a URL on an allowed domain, or a data: URI) with gzip and returns a resource link to it (or the inline resource with outputType "resource"): a resource of this session (2025-era) or a minted resource readable for ten minutes (2026-07-28).',
    annotations: { readOnlyHint: false, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', default: 'README.md.gz', description: 'Name of the compressed resource' },
        data: {
          type: 'string',
          default: 'https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md',
          description: 'URL or data URI of the file content to compress',
        },
        outputType: { type: 'string', enum: ['resourceLink', 'resource'], default: 'resourceLink', description: 'A resource_link to the compressed file, or the inline resource' },
      },
      additionalProperties: false,
    },
    handler: async ({ arguments: args, context, session, signal }) => {
      const name = typeof args.name === 'string' ? args.name : 'README.md.gz';
      const data = typeof args.data === 'string' ? args.data : 'https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md';
      const { gzip } = await rt.settings();
      const blob = gzipSync(await fetchData(data, gzip, signal)).toString('base64');
      const description = `${name}, gzip-compressed by gzip-file-as-resource`;
      let link: IResourceLinkContent;
      if (context.era === '2026') {
        link = await mintResource({ name, mimeType: MIME, description, blob });
      } else {
        if (!session) throw new ToolExecutionError('This connection has no session (a stateless endpoint): there is nowhere to keep the resource.');
        const uri = `${SESSION_RESOURCE_PREFIX}${name}`;
        await session.resources.add({ uri, name, mimeType: MIME, description, icons: ICONS.resource, content: { blob } });
        link = resourceLinkContent({ uri, name, mimeType: MIME, description });
      }
      const block: IContentBlock = args.outputType === 'resource' ? { type: 'resource', resource: { uri: link.uri, mimeType: MIME, blob } } : link;
      return formatContentResult([block]);
    },
  });
}
