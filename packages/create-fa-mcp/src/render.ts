/**
 * The placeholder renderer: `{{key}}` is replaced by the value of `key`, `{{key|json}}` by the
 * value as a JSON string literal (safe inside TypeScript, JSON and YAML), `{{key|jsonInner}}` by
 * the same without the quotes (inside a JSON string of a template). An unknown key or filter
 * is an error, and so is any `{{` left over, so a generated file is never half-filled.
 */

export type TemplateVars = Readonly<Record<string, string>>;

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w]*)\s*(?:\|\s*([A-Za-z]+)\s*)?\}\}/g;

export class RenderError extends Error {
  override name = 'RenderError';
}

const FILTERS: Record<string, (value: string) => string> = {
  json: (value) => JSON.stringify(value),
  /** Escaped for the inside of a JSON string, so a template such as package.json stays valid JSON. */
  jsonInner: (value) => JSON.stringify(value).slice(1, -1),
};

/** Renders `text`; `where` names the file in error messages. */
export function renderTemplate(text: string, vars: TemplateVars, where = 'template'): string {
  const out = text.replace(PLACEHOLDER, (_match, key: string, filter: string | undefined) => {
    if (!Object.prototype.hasOwnProperty.call(vars, key)) throw new RenderError(`${where}: unknown placeholder {{${key}}}`);
    const value = vars[key] as string;
    if (filter === undefined) return value;
    const apply = FILTERS[filter];
    if (!apply) throw new RenderError(`${where}: unknown filter "${filter}" in {{${key}|${filter}}}`);
    return apply(value);
  });
  const left = leftoverPlaceholder(out);
  if (left !== undefined) throw new RenderError(`${where}: malformed placeholder near "${left}"`);
  return out;
}

/** The text around the first `{{` still present, if any (a lone `}}` is ordinary text, e.g. nested JSON). */
export function leftoverPlaceholder(text: string): string | undefined {
  const at = text.indexOf('{{');
  return at === -1 ? undefined : text.slice(Math.max(0, at - 10), at + 20);
}
