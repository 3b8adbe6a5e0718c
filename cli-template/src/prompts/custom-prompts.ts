/** Prompts of this server beyond the standard ones. An argument's `complete` feeds completion/complete. */
import type { IPromptData } from 'fa-mcp-sdk';
import { UNITS } from '../tools/convert-temperature.js';

export const explainConversionPrompt: IPromptData = {
  name: 'explain_conversion',
  title: 'Explain a temperature conversion',
  description: 'Asks for a step-by-step explanation of converting a temperature into another unit.',
  arguments: [
    { name: 'value', description: 'The temperature, e.g. 21.5', required: true },
    { name: 'from', description: 'Its unit', required: true, complete: [...UNITS] },
    { name: 'to', description: 'The unit wanted', required: true, complete: [...UNITS] },
  ],
  content: (args) => `Explain step by step how to convert ${args.value} ${args.from} to ${args.to}, then call convert_temperature to check the result.`,
};

export const customPrompts: IPromptData[] = [explainConversionPrompt];
