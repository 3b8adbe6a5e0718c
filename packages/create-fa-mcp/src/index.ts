/**
 * create-fa-mcp: scaffolds a new MCP server from the fa-mcp-sdk template.
 * The interactive scaffolder arrives with its own issue; until then the command
 * says so plainly instead of pretending to work.
 */
const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  console.log('0.1.0');
} else {
  console.error('create-fa-mcp: the project scaffolder is not released yet. Follow https://www.npmjs.com/package/fa-mcp-sdk for the first release.');
  process.exitCode = 1;
}
