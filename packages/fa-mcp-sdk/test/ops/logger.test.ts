import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, usePrettyFormat } from '../../src/ops/logger.js';

function capture(): { stream: PassThrough; lines: () => Record<string, unknown>[]; text: () => string } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const text = (): string => chunks.join('');
  const lines = (): Record<string, unknown>[] =>
    text()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines, text };
}

describe('createLogger', () => {
  it('writes JSON with name and level, masking every header value and every credential field', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'json', nodeEnv: 'production', name: 'svc', destination: out.stream });
    log.info(
      {
        req: { headers: { authorization: 'Bearer s3cr3t', cookie: 'sid=1', 'x-api-key': 'k-123', accept: '*/*' } },
        user: { name: 'ann', password: 'hunter2' },
        password: 'top-level',
        deep: { a: { b: { token: 't-1', clientSecret: 'cs-1' } } },
      },
      'hello',
    );
    const [line] = out.lines();
    expect(line).toMatchObject({ level: 30, name: 'svc', msg: 'hello', password: '***' });
    expect(line!.req).toEqual({ headers: { authorization: '***', cookie: '***', 'x-api-key': '***', accept: '***' } });
    expect(line!.user).toEqual({ name: 'ann', password: '***' });
    expect(line!.deep).toEqual({ a: { b: { token: '***', clientSecret: '***' } } });
    expect(out.text()).not.toMatch(/s3cr3t|hunter2|top-level|k-123|t-1|cs-1/);
  });

  it('masks headers logged without a req wrapper', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'auto', nodeEnv: 'production', name: 'svc', destination: out.stream });
    log.info({ headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    const [line] = out.lines();
    expect((line!.headers as Record<string, unknown>).authorization).toBe('***');
  });

  it('honours the level', () => {
    const out = capture();
    const log = createLogger({ level: 'warn', format: 'json', nodeEnv: 'production', name: 'svc', destination: out.stream });
    log.info('hidden');
    log.warn('shown');
    expect(out.lines().map((l) => l.msg)).toEqual(['shown']);
  });

  it('writes pretty, uncoloured text in development, still masked', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'auto', nodeEnv: 'development', name: 'svc', destination: out.stream });
    log.info({ user: { password: 'hunter2' } }, 'pretty hello');
    const text = out.text();
    expect(text).toContain('pretty hello');
    expect(text).toContain('***');
    expect(text).not.toContain('hunter2');
    expect(text.trimStart().startsWith('{')).toBe(false);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/\u001b\[/);
  });

  it('chooses the format from format and NODE_ENV', () => {
    expect(usePrettyFormat('pretty', 'production')).toBe(true);
    expect(usePrettyFormat('auto', 'development')).toBe(true);
    expect(usePrettyFormat('auto', 'production')).toBe(false);
    expect(usePrettyFormat('auto', 'test')).toBe(false);
    expect(usePrettyFormat('json', 'development')).toBe(false);
  });
});

describe('createLogger: credentials inside URLs', () => {
  const DSN = 'postgres://app:s3cret-pw@db.internal:5432/main';
  const MASKED = 'postgres://***@db.internal:5432/main';

  it('masks the userinfo of a URL in every string of the line: fields at any depth, arrays, the message, its arguments, bindings, errors', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'json', nodeEnv: 'production', name: 'svc', destination: out.stream });
    const fields = { dsn: DSN, nested: { a: { b: { c: { d: { url: DSN } } } } }, list: ['ok', DSN], count: 3 };
    log.info(fields, `connecting to ${DSN}`);
    log.info('retrying %s in %d ms', DSN, 50);
    log.child({ upstream: `amqp://guest:guest-pw@mq:5672` }).warn({ ok: true }, 'child line');
    log.error({ err: new Error(`connect ECONNREFUSED ${DSN}`) }, 'failed');
    log.error(new Error(`bare error with ${DSN}`));
    const [first, second, child, failed, bare] = out.lines();
    expect(first).toMatchObject({ dsn: MASKED, nested: { a: { b: { c: { d: { url: MASKED } } } } }, list: ['ok', MASKED], count: 3, msg: `connecting to ${MASKED}` });
    expect(second!.msg).toBe(`retrying ${MASKED} in 50 ms`);
    expect(child).toMatchObject({ upstream: 'amqp://***@mq:5672', ok: true, msg: 'child line' });
    expect(failed!.err).toMatchObject({ type: 'Error', message: `connect ECONNREFUSED ${MASKED}` });
    expect(String((failed!.err as { stack: string }).stack)).toContain(MASKED);
    expect(bare!.err).toMatchObject({ type: 'Error', message: `bare error with ${MASKED}` });
    expect(out.text()).not.toMatch(/s3cret-pw|guest-pw/);
    // the caller's object is left as it was
    expect(fields.dsn).toBe(DSN);
    expect(fields.list[1]).toBe(DSN);
  });

  it('masks in pretty output too, and leaves URLs without userinfo alone', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'pretty', nodeEnv: 'development', name: 'svc', destination: out.stream });
    log.info({ dsn: DSN, site: 'https://example.com/a:b' }, `to ${DSN}`);
    expect(out.text()).not.toContain('s3cret-pw');
    expect(out.text()).toContain(MASKED);
    expect(out.text()).toContain('https://example.com/a:b');
  });
});

describe('createLogger: the rule of fa-mcp config print', () => {
  it('a webhook endpoint logged whole: userinfo, secret and every header value masked; credential pairs in text too', () => {
    const out = capture();
    const log = createLogger({ level: 'info', format: 'json', nodeEnv: 'production', name: 'svc', destination: out.stream });
    const endpoint = { name: 'hook', url: 'http://hook:pw-123@receiver.example/in', secret: 'whsec_c2VjcmV0', headers: { Authorization: 'Bearer tok-456', 'X-Team': 'blue-789' } };
    log.warn({ endpoint }, 'delivery to %s failed: upstream said {"access_token":"at-000"}; retry with password=pw-123', endpoint.url);
    const [line] = out.lines();
    expect(line!.endpoint).toEqual({ name: 'hook', url: 'http://***@receiver.example/in', secret: '***', headers: { Authorization: '***', 'X-Team': '***' } });
    expect(line!.msg).toBe('delivery to http://***@receiver.example/in failed: upstream said {"access_token":"***"}; retry with password=***');
    expect(out.text()).not.toMatch(/pw-123|whsec_|tok-456|blue-789|at-000/);
    expect(endpoint.headers['X-Team']).toBe('blue-789');
  });
});
