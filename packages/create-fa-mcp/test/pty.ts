/**
 * A pseudo-terminal for driving interactive prompts: util-linux `script` runs the command on a
 * pty (sized 120x40) while the test writes keystrokes to it and reads the screen output.
 */
import { spawn, type ChildProcess } from 'node:child_process';

// eslint-disable-next-line no-control-regex -- terminal escape sequences are exactly what is stripped here
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\r/g;

export const KEYS = { enter: '\r', down: '\x1b[B', backspace: '\x7f', ctrlC: '\x03' } as const;

export class PtySession {
  private readonly child: ChildProcess;
  private raw = '';
  private seen = 0;
  readonly exited: Promise<number | null>;

  constructor(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
    const shell = `stty cols 120 rows 40; exec ${command}`;
    this.child = spawn('script', ['-q', '-e', '-c', shell, '/dev/null'], {
      cwd: options.cwd,
      env: { ...options.env, TERM: 'xterm-256color' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => (this.raw += d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => (this.raw += d.toString()));
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  /** Everything printed so far, without terminal control sequences. */
  get screen(): string {
    return this.raw.replace(ANSI, '');
  }

  /** Waits until `pattern` appears after the previous match. */
  async waitFor(pattern: string | RegExp, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.screen.slice(this.seen);
      const at = typeof pattern === 'string' ? rest.indexOf(pattern) : rest.search(pattern);
      if (at !== -1) {
        this.seen += at + 1;
        return;
      }
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`waiting for ${String(pattern)}; the screen shows:\n${this.screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Types keys, with a short pause so the prompt redraws between them. */
  async type(...keys: string[]): Promise<void> {
    for (const key of keys) {
      this.child.stdin?.write(key);
      await new Promise((r) => setTimeout(r, 40));
    }
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
