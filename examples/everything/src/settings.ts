/**
 * The example's own configuration keys (`everything.*`), declared as an `extraSchema`: they get
 * defaults, environment variables and validation at start like the framework's keys, and are
 * read back from the running server's configuration (`handle.config`).
 */
import type { AppConfig, SchemaNode } from 'fa-mcp-sdk';

export interface EverythingSettings {
  gzip: {
    /** Largest body gzip-file-as-resource fetches, in bytes. */
    maxFetchBytes: number;
    /** How long a fetch may take, in ms. */
    maxFetchTimeMs: number;
    /** Hosts a URL may name (a host or any of its subdomains); data: URIs need none. */
    allowedDomains: string[];
  };
  /** Period of toggle-simulated-logging, in ms. */
  simulatedLoggingMs: number;
  /** Period of toggle-subscriber-updates, in ms. */
  subscriberUpdatesMs: number;
  /** get-env returns credential-like values unmasked. */
  getEnvIncludeSecrets: boolean;
}

const integer = (min: number, def: number, env: string, description: string): SchemaNode => ({ type: 'integer', minimum: min, default: def, 'x-env': [env], description });

export const EVERYTHING_SCHEMA: Record<string, SchemaNode> = {
  everything: {
    type: 'object',
    additionalProperties: false,
    description: 'Settings of the everything example.',
    properties: {
      gzip: {
        type: 'object',
        additionalProperties: false,
        properties: {
          maxFetchBytes: integer(1, 10 * 1024 * 1024, 'GZIP_MAX_FETCH_SIZE', 'Largest body gzip-file-as-resource fetches, in bytes.'),
          maxFetchTimeMs: integer(100, 30_000, 'GZIP_MAX_FETCH_TIME_MILLIS', 'How long gzip-file-as-resource may take to fetch, in ms.'),
          allowedDomains: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            default: ['raw.githubusercontent.com'],
            'x-env': ['GZIP_ALLOWED_DOMAINS'],
            description: 'Hosts gzip-file-as-resource may fetch from (each with its subdomains), comma-separated in the env; data: URIs are always allowed.',
          },
        },
      },
      simulatedLoggingMs: integer(10, 5_000, 'SIMULATED_LOGGING_INTERVAL_MS', 'Period of toggle-simulated-logging, in ms.'),
      subscriberUpdatesMs: integer(10, 10_000, 'SUBSCRIBER_UPDATES_INTERVAL_MS', 'Period of toggle-subscriber-updates, in ms.'),
      getEnvIncludeSecrets: {
        type: 'boolean',
        default: false,
        'x-env': ['GET_ENV_INCLUDE_SECRETS'],
        description: 'get-env returns credential-like values unmasked (1 or true), for debugging.',
      },
    },
  },
};

/** The example's settings from a running server's configuration. */
export function settingsOf(config: AppConfig): EverythingSettings {
  return (config as AppConfig & { everything: EverythingSettings }).everything;
}
