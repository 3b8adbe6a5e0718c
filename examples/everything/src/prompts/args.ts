/** args-prompt: city (required) and state (optional) compose a question. */
import type { IPromptData } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

export const argsPrompt: IPromptData = {
  name: 'args-prompt',
  title: 'Arguments prompt',
  description: 'A prompt with two arguments: city (required) and state (optional).',
  icons: ICONS.prompt,
  arguments: [
    { name: 'city', description: 'Name of the city', required: true },
    { name: 'state', description: 'Name of the state', required: false },
  ],
  content: ({ city, state }) => `What's weather in ${city}${state ? `, ${state}` : ''}?`,
};
