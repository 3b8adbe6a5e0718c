/**
 * The SDK documentation as a generated project carries it: links that leave FA-MCP-SDK-DOC/
 * (`../examples/demo`) point into the fa-mcp-sdk repository, which the project does not have, so
 * they become plain text that says where the thing is.
 */
const OUTSIDE_LINK = /\[([^\]]+)\]\(\.\.\/([^)\s]+)\)/g;

export function localizeDocLinks(markdown: string): string {
  return markdown.replace(OUTSIDE_LINK, (_link, text: string) => `${text} (in the fa-mcp-sdk repository)`);
}
