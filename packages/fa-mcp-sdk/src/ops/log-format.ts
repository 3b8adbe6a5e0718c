/** How log lines are written (`logger.format`): JSON lines, human-readable, or pretty in development only. */
export type LogFormat = 'auto' | 'json' | 'pretty';
