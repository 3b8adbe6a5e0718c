/**
 * get-resource-links (both eras): an intro text, then `count` resource_link items alternating
 * between dynamic Text resources (even ids) and Blob resources (odd ids).
 */
import { formatContentResult, resourceLinkContent, textContent, type IContentBlock } from 'fa-mcp-sdk';
import { dynamicUri } from '../resources/templates.js';
import { defineTool } from './define.js';

export const getResourceLinks = defineTool('both', {
  name: 'get-resource-links',
  title: 'Get resource links',
  description: 'Returns up to ten resource links to dynamic resources: Text for even ids, Blob for odd ids.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: { count: { type: 'integer', minimum: 1, maximum: 10, default: 3, description: 'Number of resource links to return (1-10)' } },
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const count = typeof args.count === 'number' ? args.count : 3;
    const blocks: IContentBlock[] = [textContent(`Here are ${count} resource links to resources available in this server:`)];
    for (let id = 1; id <= count; id++) {
      const kind = id % 2 === 0 ? 'text' : 'blob';
      blocks.push(
        resourceLinkContent({
          uri: dynamicUri(kind, id),
          name: `${kind === 'text' ? 'Text' : 'Blob'} Resource ${id}`,
          description: `Resource ${id}: ${kind === 'text' ? 'plaintext resource' : 'binary blob resource'}`,
          mimeType: 'text/plain',
        }),
      );
    }
    return formatContentResult(blocks);
  },
});
