/** simple-prompt: no arguments, a static user message. */
import type { IPromptData } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

export const simplePrompt: IPromptData = {
  name: 'simple-prompt',
  title: 'Simple prompt',
  description: 'A prompt without arguments.',
  icons: ICONS.prompt,
  content: 'This is a simple prompt without arguments.',
};
