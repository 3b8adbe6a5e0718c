/**
 * A structural check of a project's Dockerfile (there is no Docker engine to build it here):
 * named stages, a non-root USER in the final stage, a HEALTHCHECK on /health, a CMD, and every
 * COPY source present in the build context and not excluded by .dockerignore.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DockerInstruction {
  keyword: string;
  args: string;
}

/** Instructions with continuation lines joined and comments dropped. */
export function parseDockerfile(text: string): DockerInstruction[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  if (current) logical.push(current);
  return logical.map((l) => {
    const [keyword = '', ...rest] = l.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });
}

export function dockerfileProblems(projectDir: string): string[] {
  const problems: string[] = [];
  const instructions = parseDockerfile(readFileSync(join(projectDir, 'Dockerfile'), 'utf8'));
  const ignored = existsSync(join(projectDir, '.dockerignore'))
    ? readFileSync(join(projectDir, '.dockerignore'), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    : [];

  const stages = instructions.filter((i) => i.keyword === 'FROM');
  if (stages.length < 2) problems.push(`expected a multi-stage build, found ${stages.length} FROM`);
  const names = stages.map((s) => /\sAS\s+(\S+)/i.exec(s.args)?.[1]);
  if (names.some((n) => !n)) problems.push('every stage needs a name (FROM … AS name)');

  const lastFrom = instructions.lastIndexOf(stages[stages.length - 1] as DockerInstruction);
  const final = instructions.slice(lastFrom);
  const user = final.filter((i) => i.keyword === 'USER').pop()?.args;
  if (!user) problems.push('the final stage sets no USER (it would run as root)');
  else if (/^(root|0)(:|$)/.test(user)) problems.push(`the final stage runs as ${user}`);
  const health = final.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
  if (!/\bCMD\b/.test(health) || !health.includes('/health')) problems.push('the final stage has no HEALTHCHECK calling /health');
  if (!final.some((i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT')) problems.push('the final stage has no CMD');

  for (const copy of instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
    const parts = copy.args.split(/\s+/);
    if (parts.some((p) => p.startsWith('--from='))) {
      const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length);
      if (!names.includes(from)) problems.push(`COPY --from=${from}: no such stage`);
      continue;
    }
    const sources = parts.filter((p) => !p.startsWith('--')).slice(0, -1);
    if (!sources.length) problems.push(`COPY ${copy.args}: no source`);
    for (const source of sources) {
      const clean = source.replace(/^\.\//, '').replace(/\/$/, '');
      if (!existsSync(join(projectDir, clean))) problems.push(`COPY source ${source} does not exist`);
      if (ignored.includes(clean)) problems.push(`COPY source ${source} is excluded by .dockerignore`);
    }
  }
  return problems;
}
