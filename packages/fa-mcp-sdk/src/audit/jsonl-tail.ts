/**
 * Lines of a file from the last one backwards, read in chunks, so finding the last record of an
 * instance in a large audit file reads its end, not all of it.
 */
import type { FileHandle } from 'node:fs/promises';

const CHUNK = 64 * 1024;

/** The non-empty lines of the first `size` bytes of the file, last line first. */
export async function* readTailLines(handle: FileHandle, size: number): AsyncGenerator<string> {
  let end = size;
  /** Bytes of a line that began before the chunk read last. */
  let carry: Buffer = Buffer.alloc(0);
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const chunk = Buffer.alloc(end - start);
    await handle.read(chunk, 0, chunk.length, start);
    let data = Buffer.concat([chunk, carry]);
    let cut = data.lastIndexOf(0x0a);
    while (cut >= 0) {
      const line = data.subarray(cut + 1).toString('utf8').trim();
      if (line !== '') yield line;
      data = data.subarray(0, cut);
      cut = data.lastIndexOf(0x0a);
    }
    carry = data;
    end = start;
  }
  const first = carry.toString('utf8').trim();
  if (first !== '') yield first;
}
