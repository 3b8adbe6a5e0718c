/** One problem found in the configuration. */
export interface ConfigIssue {
  /** Dotted key path (e.g. `webServer.port`); empty when the problem is a whole file. */
  path: string;
  /** What is wrong and where the value came from. */
  message: string;
}

/** Thrown by `loadConfig` when the configuration cannot be read or is invalid. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[], header = 'Invalid configuration') {
    const lines = issues.map((i) => `  - ${i.path ? `${i.path}: ` : ''}${i.message}`);
    super(`${header}:\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
