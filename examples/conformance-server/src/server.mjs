// @ts-check
/**
 * The fixtures the official MCP conformance suite (@modelcontextprotocol/conformance)
 * expects of a server, built only with the public API of fa-mcp-sdk.
 *
 *   pnpm start                      # http://127.0.0.1:3001/mcp (HOST and PORT override)
 *   npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp --suite all
 *
 * SIGTERM and SIGINT stop it gracefully (initMcpServer handles both).
 */
import {
  audioContent,
  embeddedResourceContent,
  formatContentResult,
  imageContent,
  initMcpServer,
  textContent,
  ToolExecutionError,
} from 'fa-mcp-sdk';
import { modernFixtures } from './fixtures-2026.mjs';
import { RED_PIXEL_PNG, TONE_WAV } from './media-fixtures.mjs';
import { taskTools } from './task-fixtures.mjs';

/** @typedef {import('fa-mcp-sdk').ITool} ITool */
/** @typedef {import('fa-mcp-sdk').IPromptData} IPromptData */
/** @typedef {import('fa-mcp-sdk').IResourceData} IResourceData */
/** @typedef {import('fa-mcp-sdk').IResourceTemplateInfo} IResourceTemplateInfo */
/** @typedef {import('fa-mcp-sdk').JsonObject} JsonObject */


/** @param {number} ms @param {AbortSignal} [signal] */
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** @type {import('fa-mcp-sdk').IToolInputSchema} */
const NO_ARGS = { type: 'object', properties: {} };

/** @param {string} field @param {string} description */
const stringArg = (field, description) =>
  /** @type {import('fa-mcp-sdk').IToolInputSchema} */ ({
    type: 'object',
    properties: { [field]: { type: 'string', description } },
    required: [field],
  });

/** @param {JsonObject} result */
const describeElicitation = (result) =>
  `Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;

/** @type {ITool[]} */
const tools = [
  {
    name: 'test_simple_text',
    description: 'Returns simple text content',
    inputSchema: NO_ARGS,
    handler: () => formatContentResult([textContent('This is a simple text response for testing.')]),
  },
  {
    name: 'test_image_content',
    description: 'Returns image content (a 1x1 red PNG)',
    inputSchema: NO_ARGS,
    handler: () => formatContentResult([imageContent(RED_PIXEL_PNG, 'image/png')]),
  },
  {
    name: 'test_audio_content',
    description: 'Returns audio content (a short WAV tone)',
    inputSchema: NO_ARGS,
    handler: () => formatContentResult([audioContent(TONE_WAV, 'audio/wav')]),
  },
  {
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    inputSchema: NO_ARGS,
    handler: () =>
      formatContentResult([
        embeddedResourceContent({
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        }),
      ]),
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource content together',
    inputSchema: NO_ARGS,
    handler: () =>
      formatContentResult([
        textContent('Multiple content types test:'),
        imageContent(RED_PIXEL_PNG, 'image/png'),
        embeddedResourceContent({
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        }),
      ]),
  },
  {
    name: 'test_tool_with_logging',
    description: 'Sends three log messages while it runs',
    inputSchema: NO_ARGS,
    handler: async ({ client, signal }) => {
      await client.log('info', 'Tool execution started');
      await sleep(50, signal);
      await client.log('info', 'Tool processing data');
      await sleep(50, signal);
      await client.log('info', 'Tool execution completed');
      return formatContentResult([textContent('Tool with logging executed successfully')]);
    },
  },
  {
    name: 'test_error_handling',
    description: 'Always fails with a tool error (isError: true)',
    inputSchema: NO_ARGS,
    handler: () => {
      throw new ToolExecutionError('This tool intentionally returns an error for testing');
    },
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100',
    inputSchema: NO_ARGS,
    handler: async ({ sendProgress, signal }) => {
      sendProgress(0, 100);
      await sleep(50, signal);
      sendProgress(50, 100);
      await sleep(50, signal);
      sendProgress(100, 100);
      return formatContentResult([textContent('Tool with progress executed successfully')]);
    },
  },
  {
    name: 'test_sampling',
    description: "Asks the client's model for a completion (sampling)",
    inputSchema: stringArg('prompt', 'The prompt to send to the LLM'),
    handler: async ({ arguments: args, client, clientCapabilities }) => {
      if (!clientCapabilities.sampling) throw new ToolExecutionError('The client does not support sampling');
      const result = await client.sample({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      });
      const content = /** @type {{ type?: string, text?: string } | undefined} */ (result.content);
      const text = content?.type === 'text' ? content.text : JSON.stringify(content);
      return formatContentResult([textContent(`LLM response: ${text}`)]);
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for input through the client (elicitation)',
    inputSchema: stringArg('message', 'The message to show the user'),
    handler: async ({ arguments: args, client, clientCapabilities }) => {
      if (!clientCapabilities.elicitation) throw new ToolExecutionError('The client does not support elicitation');
      const result = await client.elicit({
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return formatContentResult([
        textContent(`User response: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`),
      ]);
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with a default value for every primitive type (SEP-1034)',
    inputSchema: NO_ARGS,
    handler: async ({ client }) => {
      const result = await client.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return formatContentResult([textContent(describeElicitation(result))]);
    },
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum variants (SEP-1330)',
    inputSchema: NO_ARGS,
    handler: async ({ client }) => {
      const result = await client.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Untitled single-select',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum (enumNames, deprecated)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return formatContentResult([textContent(describeElicitation(result))]);
    },
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    // The 0.1.16 fixture ($schema, $defs, additionalProperties) with the keywords
    // later suite versions also look for (SEP-2106: $anchor, allOf, if/then/else).
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    handler: ({ arguments: args }) => formatContentResult([textContent(`JSON Schema 2020-12 tool called with ${JSON.stringify(args)}`)]),
  },
  {
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call; the result arrives when the client reconnects (SEP-1699)',
    inputSchema: NO_ARGS,
    handler: async ({ client, signal }) => {
      client.closeStream?.();
      await sleep(100, signal);
      return formatContentResult([textContent('Reconnection test completed')]);
    },
  },
];

/** @type {IResourceData[]} */
const resources = [
  {
    uri: 'test://static-text',
    name: 'Static text resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    content: 'This is the content of the static text resource.',
  },
  {
    uri: 'test://static-binary',
    name: 'Static binary resource',
    description: 'A static binary resource (a 1x1 red PNG) for testing',
    mimeType: 'image/png',
    content: () => ({ blob: RED_PIXEL_PNG }),
  },
  {
    uri: 'test://watched-resource',
    name: 'Watched resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
    content: 'Watched resource content',
  },
];

/** @type {IResourceTemplateInfo[]} */
const resourceTemplates = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'Template data',
    description: 'A resource template with an id parameter',
    mimeType: 'application/json',
    read: (_uri, { id = '' }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },
];

/** @type {IPromptData[]} */
const prompts = [
  {
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments',
    content: 'This is a simple prompt for testing.',
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true, complete: ['paris', 'park', 'party', 'test-value'] },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    content: (args) => `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    content: (args) => ({
      messages: [
        {
          role: 'user',
          content: embeddedResourceContent({
            uri: args.resourceUri ?? '',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          }),
        },
        { role: 'user', content: textContent('Please process the embedded resource above.') },
      ],
    }),
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with image content',
    content: {
      messages: [
        { role: 'user', content: imageContent(RED_PIXEL_PNG, 'image/png') },
        { role: 'user', content: textContent('Please analyze the image above.') },
      ],
    },
  },
];

const modern = modernFixtures();
modern.attach(await initMcpServer({
  tools: [...tools, ...modern.tools, ...taskTools],
  resources,
  resourceTemplates,
  prompts: [...prompts, ...modern.prompts],
  skills: (await import('./skills-fixtures.mjs')).conformanceSkills,
  serverInfo: { name: 'fa-mcp-conformance-server', version: '0.0.0' },
  instructions: 'Fixtures of the official MCP conformance suite.',
  // The suite's tools log, its lists change and its resources update: declared, so the capabilities say so.
  capabilities: { logging: true, listChanged: true, subscribe: true },
}));
