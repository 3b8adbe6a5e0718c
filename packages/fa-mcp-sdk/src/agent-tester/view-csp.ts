/**
 * The Content-Security-Policy the Agent Tester page puts on an MCP Apps view,
 * built from the view's `_meta.ui.csp` the way a host does: inline scripts and
 * styles, and only the origins the view declared. Entries that are not plain
 * origins (quotes, semicolons, paths, keywords) are dropped, so a view cannot
 * widen the policy with a crafted entry.
 */

const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/;

function origins(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && ORIGIN.test(v));
}

function list(values: string[], base: string[]): string {
  const all = [...base, ...values];
  return all.length ? all.join(' ') : "'none'";
}

/** The policy for a view whose resource content carries `meta` (its `_meta`). */
export function viewCsp(meta: Record<string, unknown> | undefined): string {
  const ui = meta?.ui;
  const csp = typeof ui === 'object' && ui !== null ? ((ui as { csp?: unknown }).csp as Record<string, unknown> | undefined) : undefined;
  const resources = origins(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src ${list(resources, ["'unsafe-inline'"])}`,
    `style-src ${list(resources, ["'unsafe-inline'"])}`,
    `img-src ${list(resources, ['data:'])}`,
    `font-src ${list(resources, ['data:'])}`,
    `media-src ${list(resources, ['data:'])}`,
    `connect-src ${list(origins(csp?.connectDomains), [])}`,
    `frame-src ${list(origins(csp?.frameDomains), [])}`,
    `base-uri ${list(origins(csp?.baseUriDomains), [])}`,
    "form-action 'none'",
  ].join('; ');
}
