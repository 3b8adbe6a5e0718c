import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES } from '../core/errors.js';

/** One problem found in the configuration. */
export interface ConfigIssue {
  /** Dotted key path (e.g. `webServer.port`); empty when the problem is a whole file. */
  path: string;
  /** What is wrong and where the value came from. */
  message: string;
}

/**
 * Thrown by `loadConfig` when the configuration cannot be read or is invalid.
 * A fault of the server's setup, not of a request: its message (keys, file
 * paths) is not exposed; thrown during a request it maps to -32603.
 */
export class ConfigError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'ConfigError';
  override readonly expose: boolean = false;
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[], header = 'Invalid configuration') {
    const lines = issues.map((i) => `  - ${i.path ? `${i.path}: ` : ''}${i.message}`);
    super(`${header}:\n${lines.join('\n')}`, MCP_ERROR_CODES.INTERNAL_ERROR, 500);
    this.issues = issues;
  }
}
