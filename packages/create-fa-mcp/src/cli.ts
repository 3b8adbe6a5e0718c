/** The command line: every answer is also a flag; `--yes` takes defaults, `--config` reads a file. */
import { Command, Option } from 'commander';
import { DATABASES, TRANSPORTS } from './answers.js';
import { PACKAGE_MANAGERS } from './package-manager.js';

export interface CliOptions {
  dir?: string;
  yes: boolean;
  force: boolean;
  config?: string;
  /** `--sdk`: a version, or a path to a checkout or tarball of fa-mcp-sdk. */
  sdk?: string;
  /** Answers given as flags, unchecked (see parsePartialAnswers). */
  flags: Record<string, unknown>;
}

export function buildProgram(version: string): Command {
  return new Command('create-fa-mcp')
    .description('Create an MCP server project built on fa-mcp-sdk.')
    .version(version, '-v, --version')
    .argument('[dir]', 'folder to create (default: the project name)')
    .option('--name <name>', 'npm package name of the project')
    .option('--description <text>', 'one-line description')
    .option('--product-name <text>', 'human-readable server name (serverInfo.title)')
    .option('--port <port>', 'HTTP port (1-65535)')
    .addOption(new Option('--transport <transport>', 'transport').choices([...TRANSPORTS]))
    .option('--author <text>', 'author of the package')
    .option('--auth', 'require authentication (a generated bearer token goes to .env)')
    .option('--no-auth', 'no authentication')
    .addOption(new Option('--database <kind>', 'database').choices([...DATABASES]))
    .option('--database-url <url>', 'PostgreSQL URL (with --database postgres)')
    .option('--consul', 'register in Consul')
    .option('--no-consul', 'no Consul registration')
    .option('--install', 'install dependencies after generating (default in interactive mode)')
    .option('--no-install', 'do not install dependencies')
    .addOption(new Option('--package-manager <pm>', 'package manager for --install and the generated scripts').choices([...PACKAGE_MANAGERS]))
    .option('-y, --yes', 'answer every question with its default (no prompts)', false)
    .option('--config <file>', 'read answers from a JSON or YAML file (no prompts)')
    .option('--force', 'write into a non-empty folder', false)
    .option('--sdk <version|path|tarball>', 'fa-mcp-sdk to depend on: a version of your registry, or a built checkout folder or .tgz (copied into vendor/, depended on as file:vendor/<tarball>)')
    .showHelpAfterError()
    .allowExcessArguments(false);
}

const ANSWER_FLAGS = [
  'name', 'description', 'productName', 'port', 'transport', 'author',
  'auth', 'database', 'databaseUrl', 'consul', 'install', 'packageManager',
] as const;

export function parseCli(argv: string[], version: string): CliOptions {
  const program = buildProgram(version);
  program.parse(argv);
  const opts = program.opts<Record<string, unknown>>();
  const flags: Record<string, unknown> = {};
  for (const key of ANSWER_FLAGS) if (opts[key] !== undefined) flags[key] = opts[key];
  return {
    dir: program.args[0],
    yes: opts.yes === true,
    force: opts.force === true,
    config: typeof opts.config === 'string' ? opts.config : undefined,
    sdk: typeof opts.sdk === 'string' ? opts.sdk : undefined,
    flags,
  };
}
