/**
 * get-structured-content (both eras): weather of a location as structuredContent validated by
 * the outputSchema, with the same JSON as a text block for clients that read only content.
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';

const WEATHER = {
  'New York': { temperature: 33, conditions: 'Cloudy', humidity: 82 },
  Chicago: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
  'Los Angeles': { temperature: 73, conditions: 'Sunny / Clear', humidity: 48 },
} as const;

export const getStructuredContent = defineTool('both', {
  name: 'get-structured-content',
  title: 'Get structured content',
  description: 'Returns structured weather data for a location (structuredContent with an outputSchema) and the same data as JSON text.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string', enum: Object.keys(WEATHER), description: 'Choose city' } },
    required: ['location'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      temperature: { type: 'number', description: 'Temperature in degrees Fahrenheit' },
      conditions: { type: 'string', description: 'Weather conditions description' },
      humidity: { type: 'number', description: 'Humidity percentage' },
    },
    required: ['temperature', 'conditions', 'humidity'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => formatToolResult({ ...WEATHER[args.location as keyof typeof WEATHER] }),
});
