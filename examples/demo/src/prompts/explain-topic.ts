/**
 * explain_topic: a prompt with arguments; `topic` and `audience` offer
 * completions (completion/complete), filtered by what the user has typed.
 */
import type { IPromptData } from 'fa-mcp-sdk';

export const TOPICS = ['mcp tools', 'mcp prompts', 'mcp resources', 'progress notifications', 'elicitation', 'sampling'];
const AUDIENCES = ['beginner', 'developer', 'architect'];

export const explainTopicPrompt: IPromptData = {
  name: 'explain_topic',
  title: 'Explain an MCP topic',
  description: 'Asks the model to explain a topic of the Model Context Protocol for a given audience.',
  arguments: [
    {
      name: 'topic',
      title: 'Topic',
      description: 'What to explain, e.g. "mcp tools".',
      required: true,
      complete: (value) => TOPICS.filter((t) => t.includes(value.toLowerCase())),
    },
    {
      name: 'audience',
      title: 'Audience',
      description: 'Who the explanation is for (default: developer).',
      complete: AUDIENCES,
    },
  ],
  content: (args) => {
    const audience = args.audience || 'developer';
    return {
      description: `Explain ${args.topic} to a ${audience}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Explain "${args.topic}" in the Model Context Protocol to a ${audience}. Keep it under 200 words and end with one concrete example.`,
          },
        },
      ],
    };
  },
};
