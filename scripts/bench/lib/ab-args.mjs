// The command line that compare.mjs and instructions.mjs share: two sides (a source tree and an
// environment each), the cell they are measured on and the bench profile. Either the trees differ
// (--base <tree>) or only the environments (--base-env / --new-env KEY=VALUE, repeatable), as when the
// postgres session store is measured against the memory one on the same build.
import { parseArgs } from 'node:util';
import { METHOD_CELLS, PATHS } from './scenarios.mjs';

const SHARED_OPTIONS = {
  base: { type: 'string' },
  new: { type: 'string' },
  path: { type: 'string', default: '2026' },
  profile: { type: 'string', default: 'on' },
  connections: { type: 'string', default: '32' },
  'base-env': { type: 'string', multiple: true, default: [] },
  'new-env': { type: 'string', multiple: true, default: [] },
};

/** `KEY=VALUE` items as an object; a malformed item is refused with its text. */
function envOf(items, flag) {
  const env = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) throw new Error(`${flag} takes KEY=VALUE, got '${item}'`);
    env[item.slice(0, at)] = item.slice(at + 1);
  }
  return env;
}

/**
 * Parses the shared options and the script's own (`extra`, parseArgs option specs). Returns the
 * values, the cell, and the sides to measure: `{ name, src, env }`, `src` undefined for this tree.
 * Without --base and without --base-env only the new side is measured when `single` allows it.
 */
export function parseAbArgs(extra, { single }) {
  const { values: args } = parseArgs({ options: { ...SHARED_OPTIONS, ...extra } });
  const path = [...PATHS, ...METHOD_CELLS].find((p) => p.id === args.path);
  if (!path) throw new Error(`unknown --path ${args.path}`);
  if (args.profile !== 'on' && args.profile !== 'off') throw new Error('--profile is on or off');
  const common = { BENCH_PROFILE: args.profile, BENCH_RESPONSE_MODE: path.responseMode, ...(process.env.BENCH_ONLY ? { BENCH_ONLY: process.env.BENCH_ONLY } : {}) };
  const baseEnv = envOf(args['base-env'], '--base-env');
  const newEnv = envOf(args['new-env'], '--new-env');
  const twoSides = args.base !== undefined || args['base-env'].length > 0;
  if (!twoSides && !single) throw new Error('--base <source tree> or --base-env KEY=VALUE is required (e.g. a git worktree of the revision to compare against)');
  const sides = [];
  if (twoSides) sides.push({ name: 'base', src: args.base ?? args.new, env: { ...common, ...baseEnv } });
  sides.push({ name: 'new', src: args.new, env: { ...common, ...newEnv } });
  const envNote = [baseEnv, newEnv].some((e) => Object.keys(e).length > 0)
    ? `; env ${sides.map((s) => `${s.name}: ${JSON.stringify(s.name === 'base' ? baseEnv : newEnv)}`).join(', ')}`
    : '';
  const title = `${path.label}, fa-mcp ${args.profile === 'on' ? 'everything on' : 'nothing enabled'}${process.env.BENCH_ONLY ? ` (only ${process.env.BENCH_ONLY})` : ''}${envNote}`;
  return { args, path, sides, connections: Number(args.connections), title };
}
