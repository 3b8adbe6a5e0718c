/** The `tracing` section: OpenTelemetry spans through @opentelemetry/api. */
import type { SchemaNode } from '../schema-node.js';

export const tracingSection: SchemaNode = {
  type: 'object',
  description: 'OpenTelemetry spans per request and per tool call (no-ops unless the application registers an OpenTelemetry SDK).',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Create spans and continue the W3C trace context of incoming requests.',
      'x-env': ['TRACING_ENABLED'],
    },
  },
};

export interface TracingConfig {
  enabled: boolean;
}
