/**
 * The tools both fast-path parity suites call (2026-07-28 and 2025-era
 * sessions): one of each kind of answer a tools/call can have.
 */
import { formatToolResult, ToolExecutionError, type ITool, type McpServerData, type RequestContext } from '../../src/index.js';
import { captureStep, type Seen } from './parity-kit.js';

export const ELICIT = { elicitation: { form: {} } };

/**
 * `waits`: runs until its call is aborted, tells `onAbort` the reason, then rejects with it.
 * `onStart` hears that the handler runs and listens, so a test aborts after that, not after a guessed sleep.
 */
export function waitsTool(onAbort: (reason: unknown, context: RequestContext) => void, onStart?: (context: RequestContext) => void): ITool {
  return {
    name: 'waits',
    description: 'Waits until aborted.',
    inputSchema: { type: 'object' },
    handler: ({ signal, context }) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => {
          onAbort(signal.reason, context);
          reject(signal.reason);
        });
        onStart?.(context);
      }),
  };
}

/** A reason as `Name: message` (an Error or DOMException), or as a string. */
export const reasonText = (reason: unknown): string =>
  reason !== null && typeof reason === 'object' ? `${(reason as Error).name}: ${(reason as Error).message}` : String(reason);

/** `started` hears the request id of each `waits` call once its handler listens for the abort. */
export function parityTools(seen: Map<string, Seen>, aborted: string[], started: string[] = []): McpServerData {
  return {
    capabilities: { logging: true },
    steps: [captureStep(seen)],
    tools: [
      {
        name: 'echo',
        description: 'Echoes its text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
        outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
        handler: ({ arguments: a }) => formatToolResult({ echoed: a.text }),
      },
      {
        name: 'reversed',
        description: 'Returns structuredContent before content, and isError false.',
        inputSchema: { type: 'object' },
        handler: () => ({ structuredContent: { b: 2, a: 1 }, content: [{ text: 'x', type: 'text' }], isError: false }),
      },
      {
        name: 'fails',
        description: 'A tool-level failure with data.',
        inputSchema: { type: 'object' },
        handler: () => {
          throw new ToolExecutionError('the upstream said no', { upstream: 'billing', status: 503 });
        },
      },
      {
        name: 'crashes',
        description: 'An unexpected error.',
        inputSchema: { type: 'object' },
        handler: () => {
          throw new Error('secret internals /etc/passwd');
        },
      },
      {
        name: 'image',
        description: 'Non-text content.',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }, { type: 'text', text: 'caption', annotations: { priority: 0.5 } }] }),
      },
      {
        name: 'with_meta',
        description: 'A result with its own _meta.',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'text', text: 'm' }], _meta: { 'example.com/cost': 3 } }),
      },
      {
        name: 'huge',
        description: 'A result over the size cap.',
        inputSchema: { type: 'object' },
        handler: () => formatToolResult('x'.repeat(5_000)),
      },
      {
        name: 'asks',
        description: 'Asks the user, twice at once.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          const [a, b] = await Promise.all([
            client.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }),
            client.elicit({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } }),
          ]);
          return formatToolResult({ a, b });
        },
      },
      {
        name: 'chatty',
        description: 'Progress, logs and notifications before its result.',
        inputSchema: { type: 'object' },
        handler: async ({ sendProgress, client }) => {
          sendProgress(1, 3, 'one');
          await client.log('debug', 'below the level');
          await client.log('warning', { detail: 'visible' }, 'parity');
          sendProgress(2, 3);
          const outcomes: string[] = [];
          for (const method of ['notifications/custom/thing', 'notifications/elicitation/complete', 'notifications/roots/list_changed']) {
            try {
              await client.notify(method, { n: 1 });
              outcomes.push(`${method}: sent`);
            } catch (err) {
              outcomes.push(`${method}: ${(err as Error).message}`);
            }
          }
          sendProgress(3, 3, 'done');
          return formatToolResult({ outcomes });
        },
      },
      {
        name: 'sees',
        description: 'Returns what the handler was given.',
        inputSchema: { type: 'object' },
        handler: ({ arguments: a, headers, clientCapabilities, context }) => {
          const { host: _h, ...h } = headers ?? {};
          return formatToolResult({ args: a, headers: h, clientCapabilities, requestId: context.requestId, era: context.era, clientInfo: context.clientInfo ?? null });
        },
      },
      waitsTool(
        (reason, context) => aborted.push(`${context.requestId}: ${reasonText(reason)}`),
        (context) => started.push(context.requestId),
      ),
      {
        name: 'regional',
        description: 'Declares an x-mcp-header argument.',
        inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
        handler: ({ arguments: a }) => formatToolResult({ region: a.region }),
      },
      {
        name: 'scarce',
        description: 'Has a budget of one call.',
        inputSchema: { type: 'object' },
        handler: () => formatToolResult('ok'),
      },
    ],
  };
}

