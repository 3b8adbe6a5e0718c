/** Tool names: ASCII snake_case, 1 to 63 characters, starting with a letter. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

export function assertToolName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new Error(
      `Invalid tool name ${JSON.stringify(name)}: tool names must match ${TOOL_NAME_PATTERN} (snake_case, 1-63 characters)`,
    );
  }
}
