/**
 * convert_currency: a pure computation whose input the framework validates
 * before the handler runs (enum, number bounds, no unknown fields). A call with
 * bad arguments answers a tool result with isError: its text names the field and
 * the reason, `_meta["fa-mcp/validation"]` carries { field, reason } (JSON-RPC
 * -32602 under mcp.validation.argumentErrors: protocol).
 */
import { formatToolResult, type ITool } from 'fa-mcp-sdk';
import { CURRENCIES, rateBetween, roundMoney, type Currency } from '../rates.js';

export const convertCurrencyTool: ITool = {
  name: 'convert_currency',
  title: 'Convert currency',
  description: `Converts an amount between ${CURRENCIES.join(', ')} using fixed demo rates (not live market data).`,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      amount: { type: 'number', minimum: 0, maximum: 1_000_000_000, description: 'Amount in the source currency.' },
      from: { type: 'string', enum: [...CURRENCIES], description: 'Source currency code.' },
      to: { type: 'string', enum: [...CURRENCIES], description: 'Target currency code.' },
    },
    required: ['amount', 'from', 'to'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      amount: { type: 'number' },
      from: { type: 'string' },
      to: { type: 'string' },
      rate: { type: 'number' },
      result: { type: 'number' },
    },
    required: ['amount', 'from', 'to', 'rate', 'result'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    // The input schema has been checked: the casts only restate it for TypeScript.
    const amount = args.amount as number;
    const from = args.from as Currency;
    const to = args.to as Currency;
    const rate = rateBetween(from, to);
    return formatToolResult({ amount, from, to, rate, result: roundMoney(amount * rate, to) });
  },
};
