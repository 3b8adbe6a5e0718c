/**
 * A local fa-mcp-sdk goes into the project itself: a tarball is copied, a checkout folder is packed
 * (`npm pack`) into `vendor/`, and package.json depends on `file:vendor/<tarball>`. The path is
 * relative, so a clone on another machine installs it (`npm ci`) and the Docker build, which
 * copies vendor/ before installing, finds it; an absolute `file:` path would exist only here.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { AnswerError } from './answers.js';
import { runCaptured } from './package-manager.js';
import type { SdkSource } from './sdk-spec.js';

/** The project folder local packages are kept in (committed; copied by the Dockerfile). */
export const VENDOR_DIR = 'vendor';

/** package.json's dependency on a vendored tarball. */
export const vendoredSpec = (fileName: string): string => `file:${VENDOR_DIR}/${fileName}`;

/** Puts the tarball of `source` into `<projectDir>/vendor/` and answers its file name. */
export async function vendorSdk(source: Exclude<SdkSource, { kind: 'version' }>, projectDir: string): Promise<string> {
  const dir = join(projectDir, VENDOR_DIR);
  await mkdir(dir, { recursive: true });
  if (source.kind === 'tarball') {
    const name = basename(source.path);
    await copyFile(source.path, join(dir, name));
    return name;
  }
  // Packed where nothing else is, so the one .tgz afterwards is the one npm wrote.
  const packDir = await mkdtemp(join(tmpdir(), 'create-fa-mcp-pack-'));
  try {
    const outcome = await runCaptured('npm', ['pack', source.path, '--pack-destination', packDir], packDir);
    const packed = (await readdir(packDir)).filter((f) => f.endsWith('.tgz'));
    if (outcome.code !== 0 || packed.length !== 1) {
      throw new AnswerError([`npm pack ${source.path} failed (exit ${outcome.code}):\n${outcome.output.trimEnd()}`]);
    }
    const name = packed[0] as string;
    await copyFile(join(packDir, name), join(dir, name));
    return name;
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
}
