/**
 * The rule of `agentTester.enabled`: `auto` (the default) turns the Agent Tester on only when
 * NODE_ENV is `development`; `true` in any environment; `false` never.
 */
import type { AppConfig } from '../config/schema.js';

export function isAgentTesterEnabled(enabled: AppConfig['agentTester']['enabled'], nodeEnv: string): boolean {
  return enabled === 'auto' ? nodeEnv === 'development' : enabled === true;
}
