import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capTracestate,
  getTraceContext,
  parseTraceparent,
  traceContextMiddleware,
} from '../../src/transport/http/traceparent.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('parseTraceparent', () => {
  it('parses a valid version 00 header', () => {
    expect(parseTraceparent(VALID)).toEqual({
      version: '00',
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      flags: '01',
      sampled: true,
    });
  });

  it('reads the sampled bit from the flags', () => {
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`)?.sampled).toBe(false);
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-03`)?.sampled).toBe(true);
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-02`)?.sampled).toBe(false);
  });

  it('tolerates surrounding spaces and tabs', () => {
    expect(parseTraceparent(` \t${VALID} `)?.traceId).toBe(TRACE_ID);
  });

  it('accepts a higher version, using only the prefix fields', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${PARENT_ID}-01`)?.version).toBe('01');
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-the-future-will-be-like`)).toEqual({
      version: 'cc',
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      flags: '01',
      sampled: true,
    });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['uppercase hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['short trace id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
    ['long parent id', `00-${TRACE_ID}-${PARENT_ID}0-01`],
    ['version 00 with extra field', `${VALID}-extra`],
    ['version 00 with trailing garbage', `${VALID}x`],
    ['higher version without dash after prefix', `01-${TRACE_ID}-${PARENT_ID}-01x`],
    ['non-hex', `00-${TRACE_ID.slice(0, 31)}g-${PARENT_ID}-01`],
    ['wrong separators', `00_${TRACE_ID}_${PARENT_ID}_01`],
    ['one-digit version', `0-${TRACE_ID}-${PARENT_ID}-01`],
    ['two headers joined', `${VALID}, ${VALID}`],
  ])('rejects %s', (_label, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});

describe('capTracestate', () => {
  it('passes a short value through', () => {
    expect(capTracestate('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7')).toBe('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect(capTracestate(undefined)).toBeUndefined();
    expect(capTracestate('  ')).toBeUndefined();
  });

  it('caps at 512 characters on list-member boundaries, long members first', () => {
    const long = `big=${'x'.repeat(200)}`;
    const members = Array.from({ length: 40 }, (_v, i) => `k${i}=${'v'.repeat(10)}`);
    const capped = capTracestate([members[0], long, ...members.slice(1)].join(','));
    expect(capped).toBeDefined();
    expect(capped!.length).toBeLessThanOrEqual(512);
    expect(capped).not.toContain('big=');
    expect(capped!.startsWith('k0=')).toBe(true);
    for (const member of capped!.split(',')) expect(member).toMatch(/^k\d+=v{10}$/);
  });
});

describe('traceContextMiddleware', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(traceContextMiddleware());
    app.get('/ctx', (req, res) => {
      res.json(getTraceContext(req));
    });
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function context(headers: Record<string, string>): Promise<unknown> {
    const response = await fetch(`${base}/ctx`, { headers });
    return response.json();
  }

  it('keeps a valid traceparent and its tracestate', async () => {
    expect(await context({ traceparent: VALID, tracestate: 'rojo=00f067aa0ba902b7' })).toEqual({
      traceparent: { version: '00', traceId: TRACE_ID, parentId: PARENT_ID, flags: '01', sampled: true },
      tracestate: 'rojo=00f067aa0ba902b7',
    });
  });

  it('drops an invalid traceparent and ignores tracestate with it', async () => {
    expect(await context({ traceparent: `ff-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'rojo=1' })).toEqual({});
  });

  it('is empty without headers', async () => {
    expect(await context({})).toEqual({});
  });
});
