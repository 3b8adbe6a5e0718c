/**
 * The plain data shapes tools, prompts and resources share (icons, deprecation,
 * access requirements, what describes a resource, resource contents), in a module that imports nothing of
 * the request: types.ts and session-types.ts both use them, neither imports the
 * other. Re-exported by types.ts, where the public API lists them.
 */
import type { JsonObject } from './json-object.js';

export interface IIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface IDeprecation {
  /** ISO date (YYYY-MM-DD) after which the item may be removed. */
  until: string;
  replacedBy?: string;
  note?: string;
}

/** Who may use a tool, prompt or resource; enforced on every transport and era. */
export interface IAccessRequirements {
  /** Scopes the caller must hold, all of them (JSON-RPC -32001 with `insufficient_scope` otherwise). */
  requiredScopes?: string[];
  /** Groups (token claim or LDAP) of which the caller must be in at least one. */
  requiredGroups?: string[];
  /** Only an authenticated caller may use it (JSON-RPC -32001 `forbidden` otherwise); stdio without a token is the trusted local user. */
  requireAuth?: boolean;
}

/** What describes a resource, everything but how it is read: shared by IResourceData and ISessionResource. */
export interface IResourceDescription extends IAccessRequirements {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: IIcon[];
  annotations?: JsonObject;
  _meta?: JsonObject;
  deprecated?: IDeprecation;
}

export interface IResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: JsonObject;
}

/** What a resource function returns: text, `{ text }`, `{ blob }` (base64) or full contents. */
export type TResourceContent = string | { text: string } | { blob: string } | IResourceContents[];
