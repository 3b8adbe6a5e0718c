/**
 * Arguments that fail a tool's inputSchema, on every transport, era and path
 * (ALL_TARGETS: the fast paths and their SDK-path twins), under both settings
 * of `mcp.validation.argumentErrors`: by default a tool result with
 * `isError: true` the model can read (text naming the field and the reason,
 * `{ field, reason }` under `_meta["fa-mcp/validation"]`); with `protocol`
 * JSON-RPC -32602 with `error.data = { field, reason }`. The handler never
 * runs. Unknown tools and malformed params are -32602 under both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';

const AnyResult = z.record(z.string(), z.unknown());

function convertServer(calls: string[]): McpServerData {
  return {
    tools: [
      {
        name: 'convert_currency',
        description: 'Converts an amount between currencies.',
        inputSchema: {
          type: 'object',
          properties: { amount: { type: 'number', minimum: 0 }, to: { type: 'string', enum: ['EUR', 'USD'] } },
          required: ['amount', 'to'],
          additionalProperties: false,
        },
        // A tool result without structuredContent is still one the client takes: it is an error.
        outputSchema: { type: 'object', properties: { converted: { type: 'number' } }, required: ['converted'] },
        handler: ({ arguments: a }) => {
          calls.push('convert_currency');
          return formatToolResult({ converted: (a.amount as number) * 2 });
        },
      },
    ],
  };
}

const SETTINGS = [
  { label: 'default (result)', mode: 'result' as const, mcp: {} },
  { label: 'protocol', mode: 'protocol' as const, mcp: { validation: { argumentErrors: 'protocol' } } },
];

describe.each(ALL_TARGETS)('argument errors on $label', (target) => {
  describe.each(SETTINGS)('mcp.validation.argumentErrors: $label', ({ mode, mcp }) => {
    let server: TestServer;
    let client: Client;
    const calls: string[] = [];

    beforeAll(async () => {
      server = await startTestServer(convertServer(calls), { target, config: { mcp } });
      client = await server.connect();
    });
    afterAll(async () => {
      await server?.stop();
    });

    /** How a call with bad arguments was answered: the result form, or the -32602 error. */
    async function badCall(args: Record<string, unknown>, field: string, reason: string): Promise<void> {
      const before = calls.length;
      const message = `Invalid arguments for tool convert_currency: ${field} ${reason}`;
      if (mode === 'result') {
        const res = await client.callTool({ name: 'convert_currency', arguments: args });
        expect(res.isError).toBe(true);
        expect(res.content).toEqual([{ type: 'text', text: message }]);
        expect(res._meta?.['fa-mcp/validation']).toEqual({ field, reason });
        expect(res.structuredContent).toBeUndefined();
      } else {
        const err = await client.callTool({ name: 'convert_currency', arguments: args }).then(
          (res) => {
            throw new Error(`expected -32602, got a result: ${JSON.stringify(res)}`);
          },
          (e: unknown) => e as { code?: number; message?: string; data?: Record<string, unknown> },
        );
        expect(err.code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
        expect(err.message).toContain(message);
        expect(err.data).toMatchObject({ field, reason });
      }
      // expectToolError reads either form alike.
      const read = await expectToolError(client.callTool({ name: 'convert_currency', arguments: args }), MCP_ERROR_CODES.INVALID_PARAMS, message);
      expect(read.data).toMatchObject({ field, reason });
      expect(calls.length).toBe(before);
    }

    it('a value out of range, a value not in the enum, a missing and an extra argument: the handler never runs', async () => {
      await badCall({ amount: -5, to: 'EUR' }, 'amount', 'must be >= 0');
      await badCall({ amount: 5, to: 'GBP' }, 'to', 'must be equal to one of the allowed values');
      await badCall({ to: 'EUR' }, 'amount', 'is required');
      await badCall({ amount: 1, to: 'EUR', fee: 2 }, 'fee', 'is not allowed');
    });

    it('valid arguments still reach the handler', async () => {
      const res = await client.callTool({ name: 'convert_currency', arguments: { amount: 2, to: 'USD' } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({ converted: 4 });
      expect(calls.at(-1)).toBe('convert_currency');
    });

    it('an unknown tool, a call without a name and arguments that are not an object stay -32602', async () => {
      const before = calls.length;
      const unknown = await expectToolError(client.callTool({ name: 'no_such_tool', arguments: {} }), MCP_ERROR_CODES.INVALID_PARAMS);
      expect(unknown.data).toMatchObject({ field: 'name' });
      const refused = async (params: Record<string, unknown>) => {
        const err = await client.request({ method: 'tools/call', params: params as never }, AnyResult).then(
          (res) => ({ result: res }),
          (e: unknown) => e as { code?: number },
        );
        expect(err).toMatchObject({ code: MCP_ERROR_CODES.INVALID_PARAMS });
      };
      await refused({ arguments: { amount: 1, to: 'EUR' } });
      await refused({ name: 'convert_currency', arguments: 'amount=1' });
      await refused({ name: 'convert_currency', arguments: [1, 'EUR'] });
      expect(calls.length).toBe(before);
    });
  });
});
