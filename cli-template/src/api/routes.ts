/**
 * REST routes served next to MCP under webServer.rest.basePath (default /api), with the same
 * request id, authentication and limits. Each route's JSON Schemas validate the request and make
 * up the OpenAPI document at /openapi.json (interactive page: /docs). Delete this file and the
 * `rest` entry in server.ts if the server needs no REST API.
 */
import { ValidationError, type IRestApi } from 'fa-mcp-sdk';
import { convertTemperature, UNITS, type Unit } from '../tools/convert-temperature.js';

export const restApi: IRestApi = {
  routes: [
    {
      method: 'get',
      path: '/convert',
      operationId: 'convertTemperature',
      summary: 'Convert a temperature',
      tags: ['temperature'],
      query: {
        type: 'object',
        properties: {
          value: { type: 'number', description: 'The temperature to convert.' },
          from: { type: 'string', enum: [...UNITS] },
          to: { type: 'string', enum: [...UNITS] },
        },
        required: ['value', 'from', 'to'],
        additionalProperties: false,
      },
      response: {
        type: 'object',
        properties: { value: { type: 'number' }, unit: { type: 'string', enum: [...UNITS] } },
        required: ['value', 'unit'],
      },
      handler: ({ query }) => {
        const to = query.to as Unit;
        try {
          return { value: convertTemperature(query.value as number, query.from as Unit, to), unit: to };
        } catch (err) {
          // A 400 with the reason, like any other invalid request.
          if (err instanceof RangeError) throw new ValidationError(err.message, { field: 'value' });
          throw err;
        }
      },
    },
  ],
};
