/**
 * The seed's tool names by the revisions it lists them on, and the capability each needs. The
 * server may list more (the MCP Events tools): the checks name the seed's tools only.
 */
import { expect } from 'vitest';
export const BOTH_ERAS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-header-params',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'gzip-file-as-resource',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'trigger-elicitation-request',
  'trigger-event',
  'trigger-list-changed',
  'trigger-log-messages',
  'trigger-long-running-operation',
  'trigger-multi-step-elicitation',
  'trigger-resource-update',
  'trigger-sampling-request',
  'trigger-url-elicitation',
];
export const ONLY_2025 = ['toggle-simulated-logging', 'toggle-subscriber-updates'];
export const ONLY_2026 = ['simulate-research-query', 'trigger-elicitation-request-async', 'trigger-sampling-request-async'];

/** The both-era tools a 2025-era client gets only when it declared the capability. */
export const NEEDS = {
  roots: ['get-roots-list'],
  sampling: ['trigger-sampling-request'],
  form: ['trigger-elicitation-request', 'trigger-multi-step-elicitation'],
  url: ['trigger-url-elicitation'],
};

export const sorted = (names: Iterable<string>) => [...names].sort();

/** Every name of `served` is listed, and none of `absent`. */
export function expectTools(listed: string[], served: string[], absent: string[]): void {
  expect(sorted(listed)).toEqual(expect.arrayContaining(served));
  for (const name of absent) expect(listed, `${name} is listed`).not.toContain(name);
}
