/** get-resource-reference (both eras): an embedded dynamic resource between explanatory text. */
import { formatContentResult, textContent, type IContentBlock } from 'fa-mcp-sdk';
import { dynamicContents, type DynamicKind } from '../resources/templates.js';
import { defineTool } from './define.js';

export const getResourceReference = defineTool('both', {
  name: 'get-resource-reference',
  title: 'Get resource reference',
  description: 'Returns a resource content block (text or blob, by id) that clients can use, with explanatory text around it.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: {
      resourceType: { type: 'string', enum: ['text', 'blob'], default: 'text', description: 'Type of resource to fetch' },
      resourceId: { type: 'integer', minimum: 1, default: 1, description: 'ID of the resource to fetch (a positive integer)' },
    },
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const kind = (args.resourceType ?? 'text') as DynamicKind;
    const id = typeof args.resourceId === 'number' ? args.resourceId : 1;
    const resource = dynamicContents(kind, id);
    const embedded: IContentBlock = { type: 'resource', resource };
    return formatContentResult([
      textContent(`Returning resource reference for Resource ${id}:`),
      embedded,
      textContent(`You can access this resource using the URI: ${resource.uri}`),
    ]);
  },
});
