/**
 * What this instance registers as: name, an id unique per instance, tags,
 * meta (with version and sdk version), the address and port others reach it
 * at, and an HTTP check on the health path.
 */
import { networkInterfaces } from 'node:os';
import type { ConsulConfig } from '../../config/sections/consul.js';

export interface ServiceDefinition {
  name: string;
  id: string;
  tags: string[];
  meta: Record<string, string>;
  address: string;
  port: number;
  check: {
    name: string;
    http: string;
    interval: string;
    timeout: string;
    deregistercriticalserviceafter: string;
  };
}

export interface DefinitionInput {
  consul: ConsulConfig;
  serverName: string;
  version: string;
  sdkVersion: string;
  /** The interface the HTTP server is bound to. */
  listenHost: string;
  /** The port it actually listens on. */
  listenPort: number;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The first non-internal IPv4 address, else loopback. */
export function externalAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) if (nic.family === 'IPv4' && !nic.internal) return nic.address;
  }
  return '127.0.0.1';
}

export function serviceDefinition(input: DefinitionInput): ServiceDefinition {
  const s = input.consul.service;
  const name = s.name || input.serverName;
  const address = s.address || (WILDCARD.has(input.listenHost) ? externalAddress() : input.listenHost);
  const port = s.port || input.listenPort;
  const id = s.id || `${name}-${address}-${port}`.replace(/[^A-Za-z0-9_.-]/g, '-');
  const host = address.includes(':') ? `[${address}]` : address;
  const c = input.consul.check;
  return {
    name,
    id,
    tags: [...s.tags],
    meta: { version: input.version, sdk: `fa-mcp-sdk@${input.sdkVersion}`, ...s.meta },
    address,
    port,
    check: {
      name: `${name} HTTP ${c.path}`,
      http: `http://${host}:${port}${c.path}`,
      interval: c.interval,
      timeout: c.timeout,
      deregistercriticalserviceafter: c.deregisterCriticalServiceAfter,
    },
  };
}
