/** The `logger` section of the configuration schema. */
import type { SchemaNode } from '../schema-node.js';

export const loggerSection: SchemaNode = {
  type: 'object',
  description: 'Logging.',
  additionalProperties: false,
  properties: {
    level: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'Minimum level written.',
      'x-env': ['LOG_LEVEL'],
    },
    format: {
      type: 'string',
      enum: ['auto', 'json', 'pretty'],
      default: 'auto',
      description: 'Output format; auto: pretty when NODE_ENV=development, json otherwise.',
      'x-env': ['LOG_FORMAT'],
    },
  },
};
