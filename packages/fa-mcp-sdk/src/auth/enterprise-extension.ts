/**
 * The MCP Enterprise-Managed Authorization extension (SEP-990,
 * modelcontextprotocol/ext-auth): declared under `capabilities.extensions` at
 * initialize (2025-11-25) and server/discover (2026-07-28), as extensions are
 * negotiated, when this server's own authorization server takes ID-JAGs
 * (embedded mode with trusted identity providers, over HTTP). It adds no method;
 * clients find the token endpoint's support in the authorization server
 * metadata (`authorization_grant_profiles_supported`).
 */
import type { AppConfig } from '../config/app-config.js';
import type { ServerExtension } from '../core/extensions.js';
import { acceptsIdJag } from './oauth-paths.js';

export const ENTERPRISE_MANAGED_AUTHORIZATION = 'io.modelcontextprotocol/enterprise-managed-authorization';

/** The extension to declare, as a list of none or one. */
export function enterpriseAuthExtensions(config: AppConfig): ServerExtension[] {
  if (config.mcp.transportType !== 'http' || !acceptsIdJag(config.webServer.auth)) return [];
  return [{ id: ENTERPRISE_MANAGED_AUTHORIZATION, settings: {} }];
}
