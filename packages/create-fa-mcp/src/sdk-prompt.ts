/**
 * Asked before "Install dependencies?" when the registry does not have the fa-mcp-sdk the project
 * depends on (registry-probe.ts): say so, and offer a local checkout or tarball (the `--sdk`
 * logic of sdk-spec.ts, vendored into the project by vendor-sdk.ts) or leaving the install for later.
 */
import { log, select, text } from '@clack/prompts';
import { AnswerError } from './answers.js';
import type { PromptIo } from './prompts.js';
import { answered } from './prompts.js';
import type { RegistryStatus } from './registry-probe.js';
import { sdkSource, type SdkSource } from './sdk-spec.js';

export interface SdkChoice {
  /** The local fa-mcp-sdk chosen (a checkout or tarball, vendored into the project), when one was given. */
  sdk?: SdkSource;
  /** False when the user chose to install later. */
  install?: boolean;
}

type Option = 'path' | 'skip' | 'install';

export async function askSdkSource(spec: string, probed: RegistryStatus, cwd: string, io: PromptIo = {}): Promise<SdkChoice> {
  if (probed.status === 'found') return {};
  const problem =
    probed.status === 'missing'
      ? `fa-mcp-sdk@${spec} is not on your npm registry (${probed.detail}): installing would fail.`
      : `Could not ask your npm registry for fa-mcp-sdk@${spec} (${probed.detail}).`;
  log.warn(problem, io);
  const choice = answered(
    await select<Option>({
      ...io,
      message: 'Where should fa-mcp-sdk come from?',
      initialValue: 'path',
      options: [
        { value: 'path', label: 'A local fa-mcp-sdk', hint: 'a built checkout (packages/fa-mcp-sdk) or a packed .tgz, copied into vendor/' },
        { value: 'skip', label: 'Skip the install', hint: 'install later, e.g. from a private registry' },
        { value: 'install', label: 'Install from the registry anyway' },
      ],
    }),
    io,
  );
  if (choice === 'skip') return { install: false };
  if (choice === 'install') return {};
  const path = answered(
    await text({
      ...io,
      message: 'Path to the fa-mcp-sdk folder or .tgz',
      placeholder: '../fa-mcp-sdk/packages/fa-mcp-sdk',
      validate: (value) => {
        try {
          sdkSource((value ?? '').trim(), cwd);
          return undefined;
        } catch (err) {
          return err instanceof AnswerError ? err.message.replace(/^--sdk /, '') : String(err);
        }
      },
    }),
    io,
  );
  return { sdk: sdkSource(path.trim(), cwd) };
}
