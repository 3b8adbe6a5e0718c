/**
 * The built-in debug tool (`mcp.debug.builtinTools`): `debug_tool` answers with
 * any CallToolResult shape on request, so client authors can test how they
 * render text, images, audio, embedded resources, resource links, structured
 * content, tool errors, slow calls with progress, and oversized results.
 * Off by default; refused when NODE_ENV=production unless
 * `mcp.debug.allowInProduction` is set.
 */
import { ConfigError } from '../config/config-error.js';
import { ToolExecutionError } from '../core/errors.js';
import type { IContentBlock, ITool, IToolHandlerStructuredResponse, TToolsSource } from '../core/types.js';

export const DEBUG_TOOL_NAME = 'debug_tool';

export const DEBUG_SHAPES = ['text', 'image', 'audio', 'resource', 'resource_link', 'structured', 'error', 'slow', 'oversized', 'all'] as const;
export type DebugShape = (typeof DEBUG_SHAPES)[number];

/** A 1x1 PNG (one opaque pixel). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono WAV of `samples` samples of a square wave. */
export function tinyWav(samples = 800): string {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = Math.floor(i / 10) % 2 === 0 ? 0xa0 : 0x60;
  return Buffer.concat([header, data]).toString('base64');
}

function blocksFor(shape: Exclude<DebugShape, 'all' | 'structured' | 'error' | 'slow' | 'oversized'>): IContentBlock[] {
  switch (shape) {
    case 'text':
      return [{ type: 'text', text: 'Plain text content from debug_tool.' }];
    case 'image':
      return [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }];
    case 'audio':
      return [{ type: 'audio', data: tinyWav(), mimeType: 'audio/wav' }];
    case 'resource':
      return [{ type: 'resource', resource: { uri: 'debug://embedded/note.txt', mimeType: 'text/plain', text: 'An embedded text resource.' } }];
    case 'resource_link':
      return [{ type: 'resource_link', uri: 'debug://linked/report.json', name: 'report.json', mimeType: 'application/json', description: 'A link the client may read.' }];
  }
}

export interface DebugToolOptions {
  /** The configured result cap; `oversized` answers with more than this. */
  maxToolResultBytes: number;
}

export function createDebugTool(opts: DebugToolOptions): ITool {
  return {
    name: DEBUG_TOOL_NAME,
    title: 'Debug: every result shape',
    description:
      'Returns the CallToolResult shape asked for: text, image, audio, resource, resource_link, structured, error (isError), slow (progress, then text), oversized (cut by the result cap), or all content kinds at once.',
    inputSchema: {
      type: 'object',
      properties: {
        shape: { type: 'string', enum: [...DEBUG_SHAPES], description: 'Which result to return.' },
        delayMs: { type: 'integer', minimum: 0, maximum: 60_000, description: 'For slow: how long to take (default 2000).' },
        bytes: { type: 'integer', minimum: 1, maximum: 67_108_864, description: 'For oversized: size of the text (default: the result cap + 1 KiB).' },
      },
      required: ['shape'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async ({ arguments: args, signal, sendProgress }) => {
      const shape = args.shape as DebugShape;
      switch (shape) {
        case 'structured': {
          const data = { shape, items: [{ id: 1, label: 'one' }, { id: 2, label: 'two' }], generatedAt: new Date().toISOString() };
          return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data } satisfies IToolHandlerStructuredResponse;
        }
        case 'error':
          throw new ToolExecutionError('debug_tool failed on purpose (shape "error")', { shape });
        case 'slow': {
          const total = (args.delayMs as number | undefined) ?? 2000;
          const steps = 4;
          for (let i = 1; i <= steps; i++) {
            await sleep(total / steps, signal);
            sendProgress(i, steps, `step ${i} of ${steps}`);
          }
          return { content: [{ type: 'text', text: `slow call finished after ${total} ms` }] };
        }
        case 'oversized': {
          const bytes = (args.bytes as number | undefined) ?? opts.maxToolResultBytes + 1024;
          return { content: [{ type: 'text', text: 'x'.repeat(bytes) }] };
        }
        case 'all':
          return { content: (['text', 'image', 'audio', 'resource', 'resource_link'] as const).flatMap((s) => blocksFor(s)) };
        default:
          return { content: blocksFor(shape) };
      }
    },
  };
}

/** The consumer's tools plus the debug tool, or a ConfigError when it is refused in production. */
export function withDebugTools(
  tools: TToolsSource | undefined,
  settings: { builtinTools: boolean; allowInProduction: boolean; nodeEnv: string; maxToolResultBytes: number },
): TToolsSource | undefined {
  if (!settings.builtinTools) return tools;
  if (settings.nodeEnv === 'production' && !settings.allowInProduction) {
    throw new ConfigError(
      [{ path: 'mcp.debug.builtinTools', message: 'the debug tools are refused when NODE_ENV=production; set mcp.debug.allowInProduction to force them' }],
      'Refused configuration',
    );
  }
  const debugTool = createDebugTool({ maxToolResultBytes: settings.maxToolResultBytes });
  if (tools === undefined) return [debugTool];
  if (Array.isArray(tools)) return [...tools, debugTool];
  return async (ctx) => [...(await tools(ctx)), debugTool];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
