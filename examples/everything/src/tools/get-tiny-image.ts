/** get-tiny-image (both eras): a tiny PNG as an image block between two text blocks. */
import { formatContentResult, imageContent, textContent } from 'fa-mcp-sdk';
import { defineTool } from './define.js';
import { TINY_PNG_BASE64 } from './tiny-image.js';

export const getTinyImage = defineTool('both', {
  name: 'get-tiny-image',
  title: 'Get tiny image',
  description: 'Returns a tiny PNG MCP logo as an image content item, with text before and after.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: () =>
    formatContentResult([
      textContent("Here's the image you requested:"),
      imageContent(TINY_PNG_BASE64, 'image/png'),
      textContent('The image above is the MCP logo.'),
    ]),
});
