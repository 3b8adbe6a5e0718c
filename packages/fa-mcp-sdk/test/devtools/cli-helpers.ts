/** A CliIo that records what a command printed, rooted in a fresh temporary folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/cli-io.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const fixture = (name: string) => join(FIXTURES, name);

export interface RecordingIo extends CliIo {
  stdout: string;
  stderr: string;
}

export function recordingIo(cwd = mkdtempSync(join(tmpdir(), 'fa-mcp-cli-'))): RecordingIo {
  const io: RecordingIo = {
    cwd,
    stdout: '',
    stderr: '',
    env: {},
    out: (text) => void (io.stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void (io.stderr += text.endsWith('\n') ? text : `${text}\n`),
  };
  return io;
}
