import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestId, requestIdMiddleware } from '../../src/transport/http/request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(requestIdMiddleware());
  app.get('/id', (req, res) => {
    res.json({ id: getRequestId(req), local: res.locals.requestId });
  });
  app.get('/boom', () => {
    throw new Error('boom');
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function call(path: string, requestId?: string): Promise<{ header: string | null; body: unknown; status: number }> {
  const response = await fetch(`${base}${path}`, { headers: requestId === undefined ? {} : { 'X-Request-Id': requestId } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (express's default error page)
  }
  return { header: response.headers.get('x-request-id'), body, status: response.status };
}

describe('requestIdMiddleware', () => {
  it('echoes an acceptable incoming id', async () => {
    const id = 'abc-123.DEF_4:5';
    const { header, body } = await call('/id', id);
    expect(header).toBe(id);
    expect(body).toEqual({ id, local: id });
  });

  it('mints a UUID when none is sent', async () => {
    const { header, body } = await call('/id');
    expect(header).toMatch(UUID);
    expect(body).toEqual({ id: header, local: header });
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['spaces', 'abc def'],
    ['injection', 'abc<script>'],
    ['slash', 'a/b'],
  ])('rejects a malformed id (%s) and mints a new one', async (_label, bad) => {
    const { header, body } = await call('/id', bad);
    expect(header).not.toBe(bad);
    expect(header).toMatch(UUID);
    expect(body).toEqual({ id: header, local: header });
  });

  it('accepts an id of exactly 128 characters', async () => {
    const id = 'x'.repeat(128);
    expect((await call('/id', id)).header).toBe(id);
  });

  it('sets the header on error responses too', async () => {
    const { header, status } = await call('/boom', 'err-1');
    expect(status).toBe(500);
    expect(header).toBe('err-1');
  });

  it('gives distinct ids to distinct requests', async () => {
    const [a, b] = await Promise.all([call('/id'), call('/id')]);
    expect(a.header).not.toBe(b.header);
  });
});
