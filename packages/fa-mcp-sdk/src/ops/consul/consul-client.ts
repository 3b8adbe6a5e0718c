/** The `consul` npm client configured from `consul.agent`, loaded only when Consul is enabled. */
import type { ConsulConfig } from '../../config/sections/consul.js';
import { loadOptional } from '../../core/optional-package.js';
import type { ServiceDefinition } from './service-definition.js';

/**
 * The calls this library makes on the `consul` client. Our own shape rather than the package's
 * typings: consul is an optional peer, so the published .d.ts must not import it.
 */
export interface ConsulClient {
  agent: {
    service: {
      list(): Promise<unknown>;
      register(options: ServiceDefinition): Promise<unknown>;
      deregister(id: string): Promise<unknown>;
    };
  };
  catalog: { service: { nodes(options: { service: string; tag?: string; dc?: string }): Promise<unknown> } };
  health: { service(options: { service: string; tag?: string; dc?: string; passing?: boolean }): Promise<unknown> };
  destroy(): void;
}

export async function createConsulClient(agent: ConsulConfig['agent']): Promise<ConsulClient> {
  const ConsulClass = (await loadOptional('consul', () => import('consul'))).default;
  // `timeout` is a supported default of the client (papi request timeout) that its typings omit.
  const defaults = { timeout: agent.timeoutMs, ...(agent.token ? { token: agent.token } : {}) } as { token?: string };
  return new ConsulClass({ host: agent.host, port: agent.port, secure: agent.secure, defaults });
}
