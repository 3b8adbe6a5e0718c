/**
 * The YAML front matter of a SKILL.md: a `---` block at the very top, parsed
 * with the YAML core schema (no dates or custom tags), so the JSON a client
 * gets is the front matter verbatim.
 */
import { CORE_SCHEMA, load as parseYaml } from 'js-yaml';
import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A skill that cannot be served; stops the start. Its message names files, so it is not exposed (-32603 if it reaches a client). */
export class SkillError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'SkillError';
  override readonly expose: boolean = false;
  constructor(message: string) {
    super(message, MCP_ERROR_CODES.INTERNAL_ERROR, 500);
  }
}

/** The front matter as an object; throws SkillError (naming `where`) when there is none or it is not a mapping. */
export function parseFrontMatter(text: string, where: string): JsonObject {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new SkillError(`${where}: SKILL.md must begin with a YAML front matter block between "---" lines`);
  let data: unknown;
  try {
    data = parseYaml(match[1] as string, { schema: CORE_SCHEMA, filename: where });
  } catch (err) {
    throw new SkillError(`${where}: the front matter is not valid YAML: ${(err as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SkillError(`${where}: the front matter must be a YAML mapping with name and description`);
  }
  return data as JsonObject;
}
