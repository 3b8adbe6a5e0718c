/** Tool names by the framework's rule (`mcp.tools.nameRule: snake_case`, the default): ASCII snake_case, 1 to 63 characters, starting with a letter. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

/** Tool names by the MCP revisions' rule (`mcp.tools.nameRule: mcp`): 1 to 128 characters of `A-Z a-z 0-9 _ - .`. */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Which rule tool names follow (`mcp.tools.nameRule`, env `MCP_TOOL_NAME_RULE`). */
export type ToolNameRule = 'snake_case' | 'mcp';

const RULES: Readonly<Record<ToolNameRule, { pattern: RegExp; says: string }>> = {
  snake_case: {
    pattern: TOOL_NAME_PATTERN,
    says: 'snake_case, 1-63 characters: mcp.tools.nameRule is "snake_case" (MCP_TOOL_NAME_RULE); "mcp" allows the MCP revisions\' 1-128 characters of A-Z a-z 0-9 _ - .',
  },
  mcp: {
    pattern: MCP_TOOL_NAME_PATTERN,
    says: '1-128 characters of A-Z a-z 0-9 _ - .: mcp.tools.nameRule is "mcp" (MCP_TOOL_NAME_RULE)',
  },
};

export function assertToolName(name: unknown, rule: ToolNameRule = 'snake_case'): asserts name is string {
  const { pattern, says } = RULES[rule];
  if (typeof name !== 'string' || !pattern.test(name)) {
    throw new Error(`Invalid tool name ${JSON.stringify(name)}: tool names must match ${pattern} (${says})`);
  }
}
