// @ts-check
/**
 * The MCP Apps example, built only with the public API of fa-mcp-sdk: one view
 * (a forecast card, bundled into dist/forecast.html by scripts/build-view.mjs),
 * the tool that renders it, and a tool only the view calls.
 */
import { appTool, appView, formatContentResult, textContent } from 'fa-mcp-sdk';
import { forecast, summary, table } from './forecast.mjs';

/** Where `pnpm run build` writes the bundled view. */
export const VIEW_FILE = new URL('../dist/forecast.html', import.meta.url);
export const VIEW_URI = 'ui://forecast/card.html';

/** @type {import('fa-mcp-sdk').IToolInputSchema} */
const FORECAST_INPUT = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, description: 'City name, e.g. "Oslo"' },
    days: { type: 'integer', minimum: 1, maximum: 7, default: 3, description: 'How many days, 1 to 7' },
  },
  required: ['city'],
  additionalProperties: false,
};

/** @param {import('fa-mcp-sdk').JsonObject} args */
const daysOf = (args) => (typeof args.days === 'number' ? args.days : 3);

/**
 * @param {{ viewFile?: string | URL }} [options] the bundled view (default: dist/forecast.html)
 * @returns {import('fa-mcp-sdk').McpServerData}
 */
export function forecastServer(options = {}) {
  const view = appView({
    uri: VIEW_URI,
    file: options.viewFile ?? VIEW_FILE,
    title: 'Forecast card',
    description: 'The forecast of a city as a card, with a °C / °F switch',
    prefersBorder: true,
  });
  return {
    resources: [view.resource],
    tools: [
      appTool({
        name: 'show_forecast',
        title: 'Show the forecast',
        description: 'The forecast of a city for the next days. Hosts that render MCP Apps views show it as a card.',
        view,
        inputSchema: FORECAST_INPUT,
        annotations: { readOnlyHint: true },
        handler: ({ arguments: args }) => {
          const f = forecast(String(args.city), daysOf(args), 'C');
          return { content: [textContent(summary(f))], structuredContent: f };
        },
        // A host without views gets the whole forecast as a table instead of a one-line summary.
        fallback: ({ arguments: args }) => formatContentResult([textContent(table(forecast(String(args.city), daysOf(args), 'C')))]),
      }),
      appTool({
        name: 'forecast_in_unit',
        title: 'Forecast in a unit',
        description: 'The same forecast in °C or °F. Called by the forecast card when the user switches units.',
        view,
        visibility: ['app'],
        inputSchema: {
          ...FORECAST_INPUT,
          properties: { ...FORECAST_INPUT.properties, unit: { type: 'string', enum: ['C', 'F'] } },
          required: ['city', 'unit'],
        },
        annotations: { readOnlyHint: true },
        handler: ({ arguments: args }) => {
          const f = forecast(String(args.city), daysOf(args), args.unit === 'F' ? 'F' : 'C');
          return { content: [textContent(summary(f))], structuredContent: f };
        },
      }),
    ],
    instructions: 'show_forecast answers the forecast of a city; hosts that render MCP Apps views show it as a card.',
  };
}
