/**
 * resource-prompt: resourceType (Text or Blob) and resourceId (a positive integer as text) give
 * messages that embed the dynamic resource of that type and id.
 */
import { ValidationError, type IPromptData } from 'fa-mcp-sdk';
import { dynamicContents } from '../resources/templates.js';
import { ICONS } from '../server/icons.js';

export const resourcePrompt: IPromptData = {
  name: 'resource-prompt',
  title: 'Resource prompt',
  description: 'A prompt that embeds a dynamic resource of the given type and id.',
  icons: ICONS.prompt,
  arguments: [
    { name: 'resourceType', description: 'Type of resource to embed (Text or Blob)', required: true, complete: ['Text', 'Blob'] },
    { name: 'resourceId', description: 'ID of the resource to embed (a positive integer)', required: true },
  ],
  content: ({ resourceType, resourceId }) => {
    if (resourceType !== 'Text' && resourceType !== 'Blob') throw new ValidationError(`resourceType must be Text or Blob, got ${JSON.stringify(resourceType)}`, { field: 'resourceType' });
    if (!/^[1-9][0-9]{0,8}$/.test(resourceId ?? '')) throw new ValidationError(`resourceId must be a positive integer, got ${JSON.stringify(resourceId)}`, { field: 'resourceId' });
    const resource = dynamicContents(resourceType === 'Text' ? 'text' : 'blob', Number(resourceId));
    return {
      messages: [
        { role: 'user', content: { type: 'text', text: `This prompt includes the ${resourceType} resource with id: ${resourceId}. Please analyze the following resource:` } },
        { role: 'user', content: { type: 'resource', resource } },
      ],
    };
  },
};
