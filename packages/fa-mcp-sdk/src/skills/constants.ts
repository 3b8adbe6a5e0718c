/**
 * Wire constants of the Skills extension (SEP-2640), as
 * `@modelcontextprotocol/server/ext/skills` and the conformance suite name them.
 */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';
export const RESOURCES_DIRECTORY_READ_METHOD = 'resources/directory/read';

/** The MIME type of a directory resource (a skill folder, its `references/`). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
export const SKILL_FILE = 'SKILL.md';
export const REFERENCES_DIR = 'references';
export const DEFAULT_SKILLS_BASE_URI = 'skill://';

/** What a server should not exceed per skill: 512 files and 16 MiB, SKILL.md included. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** Agent Skills naming: 1-64 characters, lowercase letters, digits and single hyphens inside. */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
/** File names a reference may have: one URI path segment that needs no escaping. */
export const REFERENCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
