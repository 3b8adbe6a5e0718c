/**
 * create-fa-mcp: `npm create fa-mcp@latest [dir]` scaffolds an MCP server built on fa-mcp-sdk.
 */
import { basename, relative, resolve } from 'node:path';
import { intro, log, outro, spinner } from '@clack/prompts';
import { AnswerError, defaultAnswers, parsePartialAnswers, type Answers } from './answers.js';
import { locateBundle } from './bundle.js';
import { parseCli } from './cli.js';
import { readAnswersFile } from './config-file.js';
import { availableFeatures, FEATURES, unavailableChoices } from './features.js';
import { detectPackageManager, runInstall } from './package-manager.js';
import { askAnswers } from './prompts.js';
import { scaffold, ScaffoldAbortedError } from './scaffold.js';
import { npmRegistryProbe } from './registry-probe.js';
import { askSdkSource } from './sdk-prompt.js';
import { sdkSource, templateSdkRange } from './sdk-spec.js';
import { checkTarget, TargetDirError } from './target-dir.js';
import { UnsafePathError } from './safe-path.js';

function folderFor(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}

function nextSteps(targetDir: string, answers: Answers, installed: boolean): string {
  const run = answers.packageManager === 'npm' ? 'npm run' : answers.packageManager;
  const rel = relative(process.cwd(), targetDir) || '.';
  const lines = [`cd ${rel.includes(' ') ? JSON.stringify(rel) : rel}`];
  if (!installed) lines.push(`${answers.packageManager} install`);
  lines.push(`${run} test`, `${run} dev`);
  if (answers.transport === 'http') lines.push(`# then connect an MCP client to http://127.0.0.1:${answers.port}/mcp`);
  if (answers.auth) lines.push('# clients authenticate with the bearer token AUTH_PERMANENT_SERVER_TOKENS from .env');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const bundle = locateBundle();
  const cli = parseCli(argv, bundle.version);
  const available = availableFeatures(bundle.sdkPaths);
  const interactive = !cli.yes && !cli.config && process.stdin.isTTY === true && process.stdout.isTTY === true;

  const preset: Partial<Answers> = {
    ...(cli.config ? readAnswersFile(cli.config) : {}),
    ...parsePartialAnswers(cli.flags, 'flags'),
  };
  const unavailable = unavailableChoices(preset, available);
  if (unavailable.length) {
    throw new AnswerError([`This create-fa-mcp ${bundle.version} bundles an fa-mcp-sdk that cannot configure: ${unavailable.join(', ')}. Leave it off.`]);
  }
  if (cli.dir) checkTarget(resolve(cli.dir), cli.force); // fail before any question is asked
  let sdk = cli.sdk === undefined ? undefined : sdkSource(cli.sdk, process.cwd());

  const pm = preset.packageManager ?? detectPackageManager(process.env.npm_config_user_agent);
  const defaults = defaultAnswers(cli.dir ? resolve(cli.dir) : preset.name ? folderFor(preset.name) : 'my-mcp-server', pm, interactive);
  let answers: Answers;
  if (interactive) {
    intro(`create-fa-mcp ${bundle.version}`);
    const notOffered = FEATURES.filter((f) => !available.has(f.id)).map((f) => f.label);
    if (notOffered.length) log.info(`Not offered: ${notOffered.join(', ')} (this fa-mcp-sdk release cannot configure it yet).`);
    // The registry is asked while the questions are answered, and heard before the install question.
    const spec = sdk?.kind === 'version' ? sdk.spec : templateSdkRange(bundle.templateDir);
    const probed = preset.install === undefined && (sdk === undefined || sdk.kind === 'version') ? npmRegistryProbe()(spec) : undefined;
    answers = await askAnswers(preset, defaults, available, {}, probed && (async () => {
      const choice = await askSdkSource(spec, await probed, process.cwd());
      if (choice.sdk) sdk = choice.sdk;
      return choice;
    }));
  } else {
    answers = { ...defaults, ...preset };
  }

  const targetDir = resolve(cli.dir ?? folderFor(answers.name));
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  let result;
  try {
    result = await scaffold({ targetDir, templateDir: bundle.templateDir, docsDir: bundle.docsDir, answers, force: cli.force, signal: controller.signal, ...(sdk ? { sdk } : {}) });
  } finally {
    process.off('SIGINT', onSigint);
  }
  const say = interactive ? (m: string) => log.success(m) : (m: string) => console.log(m);
  say(`Created ${answers.name} in ${result.targetDir} (${result.files.length} files).`);
  if (result.vendored) say(`fa-mcp-sdk comes from ${result.vendored} (package.json: ${result.sdkDependency}); commit it: a clone and the Docker build install from it.`);

  let installed = false;
  if (answers.install) {
    const step = `Installing dependencies (${answers.packageManager} install)`;
    const secs = (ms: number) => `${Math.round(ms / 1000)} s`;
    const progress = interactive ? spinner() : undefined;
    if (progress) progress.start(step);
    else console.log(`${step} …`);
    const outcome = await runInstall(
      answers.packageManager,
      result.targetDir,
      (ms) => (progress ? progress.message(`${step}, ${secs(ms)}`) : ms % 10_000 < 1000 && console.log(`${step}, ${secs(ms)} …`)),
    );
    if (outcome.code !== 0) {
      if (progress) progress.error(`${step} failed after ${secs(outcome.elapsedMs)}`);
      console.error(`--- ${answers.packageManager} install output\n${outcome.output.trimEnd()}\n---`);
      console.error(`${answers.packageManager} install failed (exit ${outcome.code}) after ${secs(outcome.elapsedMs)}; the project is complete, run it again in ${basename(result.targetDir)}.`);
      return 1;
    }
    if (progress) progress.stop(`${step}: done in ${secs(outcome.elapsedMs)}`);
    else console.log(`${step}: done in ${secs(outcome.elapsedMs)}`);
    installed = true;
  }
  const steps = nextSteps(result.targetDir, answers, installed);
  if (interactive) outro(`Next steps:\n${steps}`);
  else console.log(`Next steps:\n${steps}`);
  return 0;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof ScaffoldAbortedError) {
      if (!err.announced) console.error(err.message);
      process.exitCode = 130;
    } else if (err instanceof AnswerError || err instanceof TargetDirError || err instanceof UnsafePathError) {
      console.error(`create-fa-mcp: ${err.message}`);
      process.exitCode = 1;
    } else {
      console.error(err);
      process.exitCode = 1;
    }
  },
);
