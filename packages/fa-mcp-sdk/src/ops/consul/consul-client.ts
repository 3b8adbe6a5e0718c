/** The `consul` npm client configured from `consul.agent`, loaded only when Consul is enabled. */
import type Consul from 'consul';
import type { ConsulConfig } from '../../config/sections/consul.js';

export type ConsulClient = InstanceType<typeof Consul>;

export async function createConsulClient(agent: ConsulConfig['agent']): Promise<ConsulClient> {
  const ConsulClass = (await import('consul')).default;
  // `timeout` is a supported default of the client (papi request timeout) that its typings omit.
  const defaults = { timeout: agent.timeoutMs, ...(agent.token ? { token: agent.token } : {}) } as { token?: string };
  return new ConsulClass({ host: agent.host, port: agent.port, secure: agent.secure, defaults });
}
