/**
 * `fa-mcp token`: mints a token for an operator in the mode the server's
 * configuration names (same layers as the server: config/*.yaml, NODE_ENV,
 * environment), prints a new signing key, or prints a token's id for
 * `webServer.auth.revoked.tokenIds`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { tokenFingerprint } from '../../auth/constant-time.js';
import { generateToken } from '../../auth/generate-token.js';
import { newPrivateKeyPem } from '../../auth/jwt-keys.js';
import { parseTtl } from '../../auth/token-minter.js';
import { loadConfig } from '../../config/loader.js';
import { action, CliUsageError, EXIT_OK, type CliIo } from '../cli-io.js';
import { processIo } from '../io.js';

export interface TokenOptions {
  sub?: string;
  scope?: string;
  groups?: string;
  ttl: string;
  claim: string[];
  privateKey?: string;
  cwd?: string;
  configDir?: string;
  env?: string;
  json?: boolean;
  newKey?: string | boolean;
  fingerprint?: string;
}

const list = (text: string | undefined, sep: RegExp) => (text ? text.split(sep).map((s) => s.trim()).filter(Boolean) : []);

export function registerTokenCommand(program: Command, io: () => CliIo = processIo): Command {
  return program
    .command('token')
    .description('Mint a token in the configured webServer.auth.jwtToken.mode (legacyAesCtr, embedded, localKey)')
    .option('-s, --sub <subject>', 'who the token is for (user name or client id)')
    .option('--scope <scopes>', 'scopes, separated by spaces or commas')
    .option('--groups <groups>', 'groups, separated by commas')
    .option('--ttl <ttl>', 'lifetime: seconds, or 30m, 12h, 7d', '1h')
    .option('--claim <name=value>', 'an extra claim (repeatable)', (v: string, acc: string[]) => [...acc, v], [])
    .option('--private-key <file>', 'PEM file of the signing key (localKey mode; overrides the embedded key)')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .option('--config-dir <dir>', 'configuration folder (default: <cwd>/config)')
    .option('--env <name>', 'NODE_ENV whose configuration layer to read')
    .option('--json', 'print { token, tokenId, expiresAt } as JSON')
    .option('--new-key [type]', 'print a new PKCS#8 private key (ec, rsa or ed25519) and exit')
    .option('--fingerprint <token>', 'print the id of a token for webServer.auth.revoked.tokenIds and exit')
    .action(action(io, (ctx, opts: TokenOptions) => mintCommand(ctx, opts)));
}

export async function mintCommand(io: CliIo, opts: TokenOptions): Promise<number> {
  if (opts.newKey !== undefined) {
    const type = opts.newKey === true ? 'ec' : opts.newKey;
    if (type !== 'ec' && type !== 'rsa' && type !== 'ed25519') throw new CliUsageError(`Unknown key type "${type}" (ec, rsa or ed25519)`);
    io.out(newPrivateKeyPem(type));
    return EXIT_OK;
  }
  if (opts.fingerprint !== undefined) {
    io.out(`${tokenFingerprint(opts.fingerprint)}\n`);
    return EXIT_OK;
  }
  if (!opts.sub) throw new CliUsageError('--sub is required');
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const { config } = loadConfig({
    cwd,
    env: io.env,
    ...(opts.configDir ? { configDir: opts.configDir } : {}),
    ...(opts.env ? { nodeEnv: opts.env } : {}),
  });
  const claims: Record<string, unknown> = {};
  for (const pair of opts.claim) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new CliUsageError(`--claim needs name=value (got "${pair}")`);
    claims[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const minted = await generateToken(
    config,
    {
      subject: opts.sub,
      ttlSec: parseTtl(opts.ttl),
      scopes: list(opts.scope, /[\s,]+/),
      groups: list(opts.groups, /,/),
      ...(Object.keys(claims).length ? { claims } : {}),
    },
    opts.privateKey ? { privateKey: readFileSync(resolve(cwd, opts.privateKey), 'utf8') } : {},
  );
  if (opts.json) io.out(`${JSON.stringify({ token: minted.token, tokenId: minted.tokenId, expiresAt: minted.expiresAt })}\n`);
  else io.out(`${minted.token}\n`);
  return EXIT_OK;
}
