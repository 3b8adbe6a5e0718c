/**
 * Generates a project: renders every template file into a temporary folder next to the target,
 * then moves it into place. An error or an abort (Ctrl-C) removes the temporary folder, so the
 * target is either untouched or complete. A local fa-mcp-sdk (`--sdk` folder or tarball) is put
 * into the project's vendor/ folder first (vendor-sdk.ts), and package.json points at it. The SDK
 * documentation is copied with its links into the fa-mcp-sdk repository made plain text
 * (docs-copy.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkAnswers, type Answers } from './answers.js';
import { templateSdkPaths } from './bundle.js';
import { featureOutput } from './features.js';
import { localizeDocLinks } from './docs-copy.js';
import { envFile } from './generated-files.js';
import { withFeaturePackages } from './feature-packages.js';
import { type SdkSource, templateSdkRange, withSdkDependency } from './sdk-spec.js';
import { VENDOR_DIR, vendoredSpec, vendorSdk } from './vendor-sdk.js';
import { renderTemplate } from './render.js';
import { assertNoSymlinkBetween, safeJoin } from './safe-path.js';
import { checkTarget, moveInto, TargetDirError } from './target-dir.js';
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
  /** Where fa-mcp-sdk comes from (`--sdk`, see sdk-spec.ts): a local one is vendored; the template's range by default. */
  sdk?: SdkSource;
  signal?: AbortSignal;
  now?: Date;
}

export interface ScaffoldResult {
  targetDir: string;
  /** Paths written, relative to the target, with forward slashes. */
  files: string[];
  /** Every secret generated (for the caller's checks; never printed). */
  secrets: string[];
  /** The fa-mcp-sdk dependency written into package.json. */
  sdkDependency: string;
  /** The vendored fa-mcp-sdk tarball (`vendor/<file>`), when a local one was given. */
  vendored?: string;
}

export const DOCS_FOLDER = 'FA-MCP-SDK-DOC';

export class ScaffoldAbortedError extends Error {
  override name = 'ScaffoldAbortedError';
  /** `announced`: the user has already been told (by the prompt that was cancelled). */
  constructor(readonly announced = false) {
    super('Cancelled: nothing was written.');
  }
}

const PERMISSION_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** A folder the user may not write to is a one-line error, not a stack trace. */
function notWritable(err: unknown, dir: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!code || !PERMISSION_CODES.has(code)) return err;
  return new TargetDirError(`cannot write to ${dir} (${code}${code === 'EROFS' ? ': read-only file system' : ': permission denied'}); choose another folder`);
}

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const { answers, signal } = options;
  const targetDir = resolve(options.targetDir);
  checkAnswers(answers);
  const state = checkTarget(targetDir, options.force === true);
  const features = featureOutput(answers, templateSdkPaths(options.templateDir));
  const vars = templateVars(answers, options.now ?? new Date());

  // Next to the target (same file system, so the final move is a rename), with the usual permissions.
  const temp = join(dirname(targetDir), `.${basename(targetDir)}.create-fa-mcp-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dirname(targetDir), { recursive: true });
    mkdirSync(temp);
  } catch (err) {
    throw notWritable(err, dirname(targetDir));
  }
  const files: string[] = [];
  const write = async (rel: string, content: string | Buffer, mode = 0o644) => {
    if (signal?.aborted) throw new ScaffoldAbortedError();
    const full = safeJoin(temp, rel);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content, { flag: 'wx', mode });
    files.push(rel);
  };

  let sdkDependency = options.sdk?.kind === 'version' ? options.sdk.spec : undefined;
  let vendored: string | undefined;
  try {
    if (options.sdk && options.sdk.kind !== 'version') {
      const tarball = await vendorSdk(options.sdk, temp);
      if (signal?.aborted) throw new ScaffoldAbortedError();
      vendored = `${VENDOR_DIR}/${tarball}`;
      files.push(vendored);
      sdkDependency = vendoredSpec(tarball);
    }
    for (const file of listTemplateFiles(options.templateDir)) {
      const content = await readFile(file.source);
      if (isBinary(content)) {
        await write(file.target, content);
        continue;
      }
      const text = renderTemplate(content.toString('utf8'), vars, file.target);
      await write(file.target, file.target === 'package.json' ? packageJsonOf(text, options.answers, sdkDependency) : text);
    }
    for (const file of listTemplateFiles(options.docsDir, DOCS_FOLDER)) {
      const content = await readFile(file.source);
      await write(file.target, file.target.endsWith('.md') ? localizeDocLinks(content.toString('utf8')) : content);
    }
    await write('.env', envFile(answers, features), 0o600); // secrets: readable by the owner only

    if (signal?.aborted) throw new ScaffoldAbortedError();
    if (state !== 'missing') for (const rel of files) assertNoSymlinkBetween(targetDir, safeJoin(targetDir, rel));
    moveInto(temp, targetDir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw notWritable(err, targetDir);
  }
  const dependency = sdkDependency ?? templateSdkRange(options.templateDir);
  return { targetDir, files: files.sort(), secrets: features.secrets, sdkDependency: dependency, ...(vendored ? { vendored } : {}) };
}

/** package.json as rendered, with the --sdk dependency and the packages of the chosen features. */
function packageJsonOf(text: string, answers: Answers, sdkDependency: string | undefined): string {
  const withFeatures = withFeaturePackages(text, answers);
  return sdkDependency ? withSdkDependency(withFeatures, sdkDependency) : withFeatures;
}
