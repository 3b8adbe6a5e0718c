/** demo://about: a static text resource. */
import type { IResourceData } from 'fa-mcp-sdk';

export const aboutResource: IResourceData = {
  uri: 'demo://about',
  name: 'about',
  title: 'About this demo',
  description: 'What the fa-mcp-demo server shows and how to try it.',
  mimeType: 'text/markdown',
  content: [
    '# fa-mcp-demo',
    '',
    'A demo MCP server built only on the public API of fa-mcp-sdk.',
    '',
    '- Tools: get_time (structured output), convert_currency (validated input),',
    '  slow_report (progress and cancellation), ask_user (elicitation).',
    '- Prompt: explain_topic (arguments with completion).',
    '- Resources: demo://about (this text), demo://rates/{currency} (a template).',
  ].join('\n'),
};
