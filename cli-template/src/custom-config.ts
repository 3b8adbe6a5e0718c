/**
 * This server's own configuration keys, next to the framework's. The schema gives each key its
 * type, default, environment variable and description: fa-mcp-sdk validates it at start, and
 * config/default.yaml lists it (regenerate with `UPDATE_CONFIG=1 npx vitest run test/config.test.ts`).
 * Keep this file free of runtime imports: the template's checks read it on their own.
 */
import type { AppConfig } from 'fa-mcp-sdk';

export const customConfigSchema = {
  app: {
    type: 'object',
    description: 'Settings of this server (add your own keys here).',
    additionalProperties: false,
    properties: {
      greeting: {
        type: 'string',
        minLength: 1,
        maxLength: 40,
        default: 'Hello',
        description: 'The word the say_hello tool greets with.',
        'x-env': ['APP_GREETING'],
      },
    },
  },
};

/** The TypeScript shape of `customConfigSchema`; keep both in step. */
export interface CustomConfig {
  app: {
    greeting: string;
  };
}

/** The whole validated configuration: the framework's keys and this server's. */
export type ServerConfig = AppConfig & CustomConfig;
