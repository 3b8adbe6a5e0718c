/**
 * convert_temperature: a pure computation. Values the schema cannot rule out (a temperature
 * below absolute zero) are refused with ToolExecutionError, which the client receives as a tool
 * result with isError: true, so a model can read the reason and try again. The same computation
 * also serves the REST route in src/api/routes.ts.
 */
import { formatToolResult, ToolExecutionError, type ITool } from 'fa-mcp-sdk';

export const UNITS = ['celsius', 'fahrenheit', 'kelvin'] as const;
export type Unit = (typeof UNITS)[number];

const toKelvin: Record<Unit, (v: number) => number> = {
  celsius: (v) => v + 273.15,
  fahrenheit: (v) => ((v - 32) * 5) / 9 + 273.15,
  kelvin: (v) => v,
};
const fromKelvin: Record<Unit, (k: number) => number> = {
  celsius: (k) => k - 273.15,
  fahrenheit: (k) => ((k - 273.15) * 9) / 5 + 32,
  kelvin: (k) => k,
};

/** The converted value, rounded to two decimals; a RangeError below absolute zero. */
export function convertTemperature(value: number, from: Unit, to: Unit): number {
  const kelvin = toKelvin[from](value);
  if (kelvin < 0) throw new RangeError(`${value} ${from} is below absolute zero`);
  return Math.round(fromKelvin[to](kelvin) * 100) / 100;
}

export const convertTemperatureTool: ITool = {
  name: 'convert_temperature',
  title: 'Convert temperature',
  description: `Converts a temperature between ${UNITS.join(', ')}. The result is rounded to two decimals.`,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      value: { type: 'number', description: 'The temperature to convert.' },
      from: { type: 'string', enum: [...UNITS], description: 'Unit of value.' },
      to: { type: 'string', enum: [...UNITS], description: 'Unit of the result.' },
    },
    required: ['value', 'from', 'to'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      value: { type: 'number' },
      unit: { type: 'string', enum: [...UNITS] },
    },
    required: ['value', 'unit'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const to = args.to as Unit;
    try {
      return formatToolResult({ value: convertTemperature(args.value as number, args.from as Unit, to), unit: to });
    } catch (err) {
      if (err instanceof RangeError) throw new ToolExecutionError(err.message);
      throw err;
    }
  },
};
