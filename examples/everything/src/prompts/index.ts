/** Every prompt of the example. */
import type { IPromptData } from 'fa-mcp-sdk';
import { argsPrompt } from './args.js';
import { completablePrompt } from './completions.js';
import { resourcePrompt } from './resource.js';
import { simplePrompt } from './simple.js';

export const everythingPrompts: IPromptData[] = [simplePrompt, argsPrompt, completablePrompt, resourcePrompt];
