/**
 * The console diversion of a stdio server (mcp.stdio.consoleToStderr): every
 * method of the console writes to stderr until it is restored, and a method
 * someone else replaced meanwhile is left as it is.
 */
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { divertConsoleToStderr } from '../../src/transport/stdio-console.js';

afterEach(() => vi.restoreAllMocks());

describe('console to stderr', () => {
  it('routes log, info, debug, dir, table to stderr, and restores the originals', () => {
    const stdout = new PassThrough();
    const target = new Console({ stdout, stderr: new PassThrough() });
    const originals = { log: target.log, info: target.info, debug: target.debug, warn: target.warn };
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const restore = divertConsoleToStderr(target);
    target.log('via log');
    target.info('via info');
    target.debug('via debug');
    target.dir({ via: 'dir' });
    target.table([{ via: 'table' }]);
    expect(stdout.read()).toBeNull();
    expect(written.join('')).toMatch(/via log[\s\S]*via info[\s\S]*via debug[\s\S]*via: 'dir'[\s\S]*table/);

    restore();
    expect({ log: target.log, info: target.info, debug: target.debug, warn: target.warn }).toEqual(originals);
    target.log('after');
    expect((stdout.read() as Buffer).toString()).toBe('after\n');
  });

  it('leaves a method replaced after the diversion as it is; restoring twice is harmless', () => {
    const target = new Console({ stdout: new PassThrough(), stderr: new PassThrough() });
    const originalInfo = target.info;
    const restore = divertConsoleToStderr(target);
    const mine = () => undefined;
    target.log = mine;
    restore();
    restore();
    expect(target.log).toBe(mine);
    expect(target.info).toBe(originalInfo);
  });
});
