/** The placeholder values of a generated project, derived from the answers. */
import type { Answers } from './answers.js';
import { commandsFor } from './package-manager.js';
import type { TemplateVars } from './render.js';

export function templateVars(answers: Answers, now: Date): TemplateVars {
  const pm = commandsFor(answers.packageManager);
  return {
    name: answers.name,
    description: answers.description,
    productName: answers.productName,
    port: String(answers.port),
    transport: answers.transport,
    author: answers.author,
    /** Folder-safe name, e.g. for the Docker image and container. */
    slug: answers.name.replace(/^@/, '').replace(/[^a-z0-9_.-]+/g, '-'),
    date: now.toISOString().slice(0, 10),
    year: String(now.getUTCFullYear()),
    packageManager: answers.packageManager,
    pmCiInstall: pm.ciInstall,
    pmProdInstall: pm.prodInstall,
    pmRun: pm.run,
    pmLockfile: pm.lockfile,
    pmSetup: pm.setup,
    pmCiCacheDir: pm.ciCacheDir,
    pmCiCachedInstall: pm.ciCachedInstall,
    // Feature switches, written into the committed config files.
    authEnabled: String(answers.auth),
    openapiInProduction: String(!answers.auth),
    dbEmbedded: String(answers.database === 'embedded'),
    consulEnabled: String(answers.consul),
  };
}
