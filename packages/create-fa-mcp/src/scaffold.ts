/**
 * Generates a project: renders every template file into a temporary folder next to the target,
 * then moves it into place. An error or an abort (Ctrl-C) removes the temporary folder, so the
 * target is either untouched or complete.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkAnswers, type Answers } from './answers.js';
import { templateSdkPaths } from './bundle.js';
import { featureOutput } from './features.js';
import { envFile } from './generated-files.js';
import { renderTemplate } from './render.js';
import { assertNoSymlinkBetween, safeJoin } from './safe-path.js';
import { checkTarget, moveInto } from './target-dir.js';
import { isBinary, listTemplateFiles } from './template-files.js';
import { templateVars } from './template-vars.js';

export interface ScaffoldOptions {
  targetDir: string;
  /** The project template (`cli-template/`, or its bundled copy). */
  templateDir: string;
  /** FA-MCP-SDK-DOC, copied verbatim into the project. */
  docsDir: string;
  answers: Answers;
  /** Write into a non-empty folder (template files replace files of the same name). */
  force?: boolean;
  signal?: AbortSignal;
  now?: Date;
}

export interface ScaffoldResult {
  targetDir: string;
  /** Paths written, relative to the target, with forward slashes. */
  files: string[];
  /** Every secret generated (for the caller's checks; never printed). */
  secrets: string[];
}

export const DOCS_FOLDER = 'FA-MCP-SDK-DOC';

export class ScaffoldAbortedError extends Error {
  override name = 'ScaffoldAbortedError';
  /** `announced`: the user has already been told (by the prompt that was cancelled). */
  constructor(readonly announced = false) {
    super('Cancelled: nothing was written.');
  }
}

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const { answers, signal } = options;
  const targetDir = resolve(options.targetDir);
  checkAnswers(answers);
  const state = checkTarget(targetDir, options.force === true);
  const features = featureOutput(answers, templateSdkPaths(options.templateDir));
  const vars = templateVars(answers, options.now ?? new Date());

  await mkdir(dirname(targetDir), { recursive: true });
  // Next to the target (same file system, so the final move is a rename), with the usual permissions.
  const temp = join(dirname(targetDir), `.${basename(targetDir)}.create-fa-mcp-${randomBytes(6).toString('hex')}`);
  mkdirSync(temp);
  const files: string[] = [];
  const write = async (rel: string, content: string | Buffer) => {
    if (signal?.aborted) throw new ScaffoldAbortedError();
    const full = safeJoin(temp, rel);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content, { flag: 'wx' });
    files.push(rel);
  };

  try {
    for (const file of listTemplateFiles(options.templateDir)) {
      const content = await readFile(file.source);
      await write(file.target, isBinary(content) ? content : renderTemplate(content.toString('utf8'), vars, file.target));
    }
    for (const file of listTemplateFiles(options.docsDir, DOCS_FOLDER)) {
      await write(file.target, await readFile(file.source));
    }
    await write('.env', envFile(answers, features));

    if (signal?.aborted) throw new ScaffoldAbortedError();
    if (state !== 'missing') for (const rel of files) assertNoSymlinkBetween(targetDir, safeJoin(targetDir, rel));
    moveInto(temp, targetDir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw err;
  }
  return { targetDir, files: files.sort(), secrets: features.secrets };
}
