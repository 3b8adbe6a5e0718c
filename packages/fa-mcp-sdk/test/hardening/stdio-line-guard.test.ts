/**
 * The stdio line guard and the raw message checks it shares with the HTTP body
 * parser: refused lines are answered with a JSON-RPC error, sound lines reach
 * the SDK byte for byte, and an oversized line neither grows memory nor closes
 * the connection.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkRawMessage, nestingDepthExceeds } from '../../src/transport/raw-message-check.js';
import { guardStdin } from '../../src/transport/stdio-line-guard.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');

/** Waits, a turn of the event loop at a time, until `check` holds (at most 100 turns). */
async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
}

describe('raw message checks', () => {
  it('measures nesting outside strings only, escapes included', () => {
    expect(nestingDepthExceeds(bytes('[[[]]]'), 3)).toBe(false);
    expect(nestingDepthExceeds(bytes('[[[[]]]]'), 3)).toBe(true);
    expect(nestingDepthExceeds(bytes('{"a":{"b":{"c":{}}}}'), 3)).toBe(true);
    expect(nestingDepthExceeds(bytes('{"a":"[[[[[[[[{{{{{{"}'), 3)).toBe(false);
    expect(nestingDepthExceeds(bytes('{"a":"\\"[[[[[[["}'), 3)).toBe(false);
    expect(nestingDepthExceeds(bytes('{"a":"\\\\","b":[[[[1]]]]}'), 3)).toBe(true); // the escaped backslash ends before the quote
    expect(nestingDepthExceeds(bytes('[],[],[],[],[]'), 1)).toBe(false); // siblings do not add up
  });

  it('gives the same answer with few brackets and with many, in Buffers and plain byte arrays', () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const cases: Array<[string, number, boolean]> = [
      ['{}', 0, true],
      ['"{"', 0, false],
      ['1', 0, false],
      ['[]', -1, true],
      [deep(16), 16, false],
      [deep(17), 16, true],
      [deep(17), 17, false],
      [deep(40), 64, false],
      [deep(65), 64, true],
      ['[' + '{},'.repeat(100) + '{}]', 2, false], // many brackets, shallow
      ['[' + '{},'.repeat(100) + '[[1]]]', 2, true],
      ['{"s":"' + '{'.repeat(40) + '","a":[[[1]]]}', 3, true],
      ['{"s":"' + '['.repeat(40) + '","a":[[1]]}', 3, false],
    ];
    for (const [text, limit, expected] of cases) {
      expect(nestingDepthExceeds(bytes(text), limit)).toBe(expected);
      expect(nestingDepthExceeds(new Uint8Array(bytes(text)), limit)).toBe(expected);
    }
  });

  it('refuses bytes that are not UTF-8 before depth', () => {
    expect(checkRawMessage(Buffer.from([0x7b, 0xff, 0x7d]), 10)).toBe('invalid-utf8');
    expect(checkRawMessage(Buffer.from([0xed, 0xa0, 0x80]), 10)).toBe('invalid-utf8'); // an encoded surrogate
    expect(checkRawMessage(Buffer.from([0xc0, 0xaf]), 10)).toBe('invalid-utf8'); // overlong
    expect(checkRawMessage(bytes('{"é":"ü"}'), 10)).toBeUndefined();
    expect(checkRawMessage(bytes('['.repeat(11)), 10)).toBe('too-deep');
  });
});

function harness(maxLineBytes = 200, maxJsonDepth = 5) {
  const input = new PassThrough();
  const output = new PassThrough();
  const guarded = guardStdin(input, output, { maxLineBytes, maxJsonDepth });
  const passed: string[] = [];
  const replies: Array<{ id: unknown; error: { code: number; message: string } }> = [];
  guarded.stream.on('data', (c: Buffer) => passed.push(...c.toString('utf8').split('\n').filter(Boolean)));
  output.on('data', (c: Buffer) => replies.push(...c.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))));
  const flush = () => new Promise((r) => setImmediate(r));
  return { input, guarded, passed, replies, flush };
}

describe('stdio line guard', () => {
  it('passes sound messages through unchanged, whatever the chunking and line endings', async () => {
    const h = harness();
    const a = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const b = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
    const c = '{"jsonrpc":"2.0","id":"x","result":{}}';
    const wire = `${a}\r\n${b}\n\n   \n${c}\n`;
    for (let i = 0; i < wire.length; i += 7) h.input.write(wire.slice(i, i + 7));
    await h.flush();
    expect(h.passed).toEqual([a, b, c]);
    expect(h.replies).toEqual([]);
  });

  it('answers what it refuses, with the id when the message has a usable one', async () => {
    const h = harness();
    h.input.write('{"jsonrpc":"2.0","id":1,\n'); // not JSON
    h.input.write(Buffer.concat([bytes('{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":"'), Buffer.from([0xff]), bytes('"}}\n')]));
    h.input.write('[[[[[[[1]]]]]]]\n'); // deeper than 5
    h.input.write('[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n'); // a batch
    h.input.write('{"jsonrpc":"1.0","id":4,"method":"ping"}\n'); // a broken shape with an id
    h.input.write('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}\n'); // an id that is no id
    h.input.write('[]\n');
    h.input.write('42\n');
    await h.flush();
    expect(h.passed).toEqual([]);
    expect(h.replies.map((r) => [r.id, r.error.code])).toEqual([
      [null, -32700], [null, -32700], [null, -32600], [null, -32600], [4, -32600], [null, -32600], [null, -32600], [null, -32600],
    ]);
    expect(h.replies[3]!.error.message).toMatch(/batches are not supported/);
  });

  it('skips an oversized line as it streams in, answers -32005 once, and keeps the connection', async () => {
    const h = harness(100);
    h.input.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
    for (let i = 0; i < 50; i++) h.input.write('x'.repeat(1_000)); // 50 KB of one line, never buffered whole
    h.input.write('"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await h.flush();
    expect(h.replies).toHaveLength(1);
    expect(h.replies[0]).toMatchObject({ id: null, error: { code: -32005, data: { maxPayloadBytes: 100 } } });
    expect(h.passed).toEqual(['{"jsonrpc":"2.0","id":2,"method":"ping"}']);
  });

  it('tells the end of stdin without ending the SDK side (a last line without newline included); detach ends it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: unknown[] = [];
    let told = 0;
    const guarded = guardStdin(input, output, { maxLineBytes: 200, maxJsonDepth: 5 }, { line: (m) => lines.push(m), ended: () => told++ });
    let ended = false;
    const passed: string[] = [];
    guarded.stream.on('data', (c: Buffer) => passed.push(c.toString('utf8')));
    guarded.stream.on('end', () => (ended = true));
    input.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await waitUntil(() => told === 1);
    // The SDK's transport closes its connection at the end of its input: it must not see it while requests are served.
    expect(ended).toBe(false);
    expect(lines).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(passed.join('')).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    guarded.detach();
    await waitUntil(() => ended);

    const other = harness();
    other.guarded.detach();
    expect(other.input.listenerCount('data')).toBe(0);
    expect(other.input.isPaused()).toBe(true);
  });
});
