/**
 * `fa-mcp contract snapshot | check | diff`: record a server's whole surface in a committed file,
 * fail when the server answers differently, and classify the changes between two files by the
 * versioning policy (with an optional check that the version bump is big enough).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { canonicalJson, checkBump, collectSurface, diffSnapshots, parseSnapshot, renderDiff, type ContractSnapshot } from '../../contract/index.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printErr, printOut, type CliIo } from '../cli-io.js';
import { addServerSourceOptions, openServer, type ServerSourceOptions } from '../server-source.js';

export const DEFAULT_CONTRACT_FILE = 'contract.json';

interface FileOption {
  file?: string;
  out?: string;
}

async function takeSnapshot(opts: ServerSourceOptions, io: CliIo): Promise<ContractSnapshot> {
  const server = await openServer(opts, io.cwd, true);
  try {
    return await collectSurface(server.client, server.endpoints);
  } finally {
    await server.close();
  }
}

function readSnapshot(file: string): ContractSnapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return parseSnapshot(text, file);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
}

export async function contractSnapshot(io: CliIo, opts: ServerSourceOptions & FileOption): Promise<number> {
  const snapshot = await takeSnapshot(opts, io);
  const file = resolve(io.cwd, opts.out ?? DEFAULT_CONTRACT_FILE);
  writeFileSync(file, canonicalJson(snapshot));
  const count = (k: 'tools' | 'prompts' | 'resources' | 'resourceTemplates') => snapshot[k].length;
  printOut(io, 
    `wrote ${file}: ${count('tools')} tools, ${count('prompts')} prompts, ${count('resources')} resources, ${count('resourceTemplates')} templates` +
      (snapshot.endpoints ? `, ${snapshot.endpoints.length} HTTP endpoints` : ''),
  );
  return EXIT_OK;
}

export async function contractCheck(io: CliIo, opts: ServerSourceOptions & FileOption): Promise<number> {
  const file = resolve(io.cwd, opts.file ?? DEFAULT_CONTRACT_FILE);
  const committed = readSnapshot(file);
  const current = await takeSnapshot({ ...opts, endpoints: opts.endpoints !== false && committed.endpoints !== undefined }, io);
  const diff = diffSnapshots(committed, current);
  const version = [committed.serverInfo.version, current.serverInfo.version];
  if (diff.changes.length === 0) {
    const note = version[0] !== version[1] ? ` (serverInfo.version ${String(version[0])} -> ${String(version[1])} is not part of the contract)` : '';
    printOut(io, `contract OK: the server answers as ${file} says${note}`);
    return EXIT_OK;
  }
  printErr(io, `The server does not answer as ${file} says.\n${renderDiff(diff)}If the change is intended, run \`fa-mcp contract snapshot\` and commit the file (and bump the version as the verdict says).`);
  return EXIT_CHECK_FAILED;
}

export interface DiffCommandOptions {
  currentVersion?: string;
  nextVersion?: string;
  json?: boolean;
}

export async function contractDiff(io: CliIo, oldFile: string, newFile: string, opts: DiffCommandOptions): Promise<number> {
  const before = readSnapshot(resolve(io.cwd, oldFile));
  const after = readSnapshot(resolve(io.cwd, newFile));
  const diff = diffSnapshots(before, after);
  const current = opts.currentVersion ?? (typeof before.serverInfo.version === 'string' ? before.serverInfo.version : undefined);
  const next = opts.nextVersion ?? (typeof after.serverInfo.version === 'string' ? after.serverInfo.version : undefined);
  const wantsBumpCheck = opts.currentVersion !== undefined || opts.nextVersion !== undefined;
  if (wantsBumpCheck && (!current || !next)) throw new CliUsageError('give both --current-version and --next-version (or snapshots with serverInfo.version)');
  let bump;
  try {
    bump = wantsBumpCheck ? checkBump(current as string, next as string, diff.verdict) : undefined;
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
  if (opts.json) printOut(io, JSON.stringify({ verdict: diff.verdict, changes: diff.changes, ...(bump ? { bump } : {}) }, null, 2));
  else printOut(io, `${renderDiff(diff)}${bump ? `${bump.ok ? 'OK' : 'FAIL'}: ${bump.message}\n` : ''}`);
  return bump && !bump.ok ? EXIT_CHECK_FAILED : EXIT_OK;
}

export function registerContractCommand(program: Command, io: () => CliIo): Command {
  const contract = program.command('contract').description("Record, check and compare a server's public surface");
  addServerSourceOptions(contract.command('snapshot').description(`Write the server's surface to a file (default ${DEFAULT_CONTRACT_FILE})`))
    .option('-o, --out <file>', `where to write (default ${DEFAULT_CONTRACT_FILE})`)
    .option('--no-endpoints', 'do not start the HTTP server to record its routes')
    .action(action(io, (ctx, opts: ServerSourceOptions & FileOption) => contractSnapshot(ctx, opts)));
  addServerSourceOptions(contract.command('check').description('Fail (exit 1) when the server answers differently from the file'))
    .option('-f, --file <file>', `the committed snapshot (default ${DEFAULT_CONTRACT_FILE})`)
    .option('--no-endpoints', 'do not compare HTTP routes')
    .action(action(io, (ctx, opts: ServerSourceOptions & FileOption) => contractCheck(ctx, opts)));
  contract
    .command('diff')
    .description('Classify every change from OLD to NEW as MAJOR, MINOR or PATCH and print the verdict')
    .argument('<old>', 'the snapshot of the last release')
    .argument('<new>', 'the snapshot of this release')
    .option('--current-version <version>', 'version of OLD (default: its serverInfo.version when --next-version is given)')
    .option('--next-version <version>', 'version about to be released: exit 1 when the bump is smaller than the verdict')
    .option('--json', 'print the verdict, changes and bump check as JSON')
    .action(action(io, (ctx, oldFile: string, newFile: string, opts: DiffCommandOptions) => contractDiff(ctx, oldFile, newFile, opts)));
  return contract;
}
