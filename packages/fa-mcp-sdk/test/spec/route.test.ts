/**
 * The one decision of how a message is served (src/protocol/route.ts): every
 * route with the facts that select it, on every transport, and the HTTP
 * reader (lane or express) with the heads that select each. The table covers
 * every route there is; a route added without a row fails here.
 */
import { describe, expect, it } from 'vitest';
import { decideRoute, httpReader, ROUTES, type HttpHead, type HttpMessageFacts, type MessageFacts, type Route } from '../../src/protocol/route.js';

/** A 2025-era POST without a session, core routes on, nothing special: change what a row needs. */
const http = (over: Partial<HttpMessageFacts> = {}): HttpMessageFacts => ({
  transport: 'http',
  method: 'POST',
  json: true,
  legacy: () => true,
  initialize: false,
  sessionHeader: false,
  call: undefined,
  coreSession: false,
  coreStream: false,
  coreRoutes: true,
  stateless: false,
  ...over,
});

const modern = () => false;
const coreCall = (era: '2026' | '2025') => ({ era, core: true });

const TABLE: Array<[Route, string, MessageFacts]> = [
  ['core.modern', 'a plain 2026-07-28 call the core serves', http({ legacy: modern, call: coreCall('2026') })],
  ['core.modern', 'the same on a stateless endpoint', http({ legacy: modern, call: coreCall('2026'), stateless: true })],
  ['sdk.modern', 'a 2026-07-28 request that is no plain call (server/discover, lists, tasks …)', http({ legacy: modern })],
  ['sdk.modern', 'a plain 2026-07-28 call whose tool needs the SDK path (task-capable while tasks are offered)', http({ legacy: modern, call: { era: '2026', core: false } })],
  ['sdk.modern', 'a plain 2026-07-28 call with core routes off (mcp.fastPath: false)', http({ legacy: modern, call: coreCall('2026'), coreRoutes: false })],
  ['sdk.modern', 'a 2026-07-28 request on a stateless endpoint', http({ legacy: modern, stateless: true })],
  ['core.session', 'a plain call on a session held here, headers as the transport takes them', http({ sessionHeader: true, call: coreCall('2025'), coreSession: true })],
  ['sdk.session', 'the same call on a session held elsewhere, or with other headers', http({ sessionHeader: true, call: coreCall('2025'), coreSession: false })],
  ['sdk.session', 'a call whose tool needs the SDK path (a task-capable tool while tasks are offered)', http({ sessionHeader: true, call: { era: '2025', core: false }, coreSession: true })],
  ['sdk.session', 'a session call with core routes off', http({ sessionHeader: true, call: coreCall('2025'), coreSession: true, coreRoutes: false })],
  ['sdk.session', 'any other POST on a session (a list, a notification, a response)', http({ sessionHeader: true })],
  ['sdk.session', 'the session GET stream', http({ method: 'GET', json: false, sessionHeader: true })],
  ['sdk.session', 'a GET with Last-Event-ID of a stream the SDK transport serves', http({ method: 'GET', json: false, sessionHeader: true, coreStream: false })],
  ['sdk.session', 'the session end (DELETE)', http({ method: 'DELETE', json: false, sessionHeader: true })],
  ['core.session-resume', 'a GET with Last-Event-ID of a stream the core route serves', http({ method: 'GET', json: false, sessionHeader: true, coreStream: true })],
  ['sdk.session-open', 'an initialize without a session', http({ initialize: true })],
  ['sdk.stateless', 'a 2025-era POST on a stateless endpoint (initialize included)', http({ stateless: true, initialize: true })],
  ['sdk.stateless', 'a 2025-era POST naming a session on a stateless endpoint', http({ stateless: true, sessionHeader: true, call: coreCall('2025') })],
  ['refuse.method', 'a GET on a stateless endpoint', http({ method: 'GET', json: false, stateless: true })],
  ['refuse.method', 'a DELETE on a stateless endpoint', http({ method: 'DELETE', json: false, stateless: true })],
  ['refuse.media', 'a POST no JSON parser took, without a session', http({ json: false })],
  ['refuse.no-session', 'a 2025-era POST without a session that is not an initialize', http({})],
  ['refuse.session-header', 'a GET without a session', http({ method: 'GET', json: false })],
  ['refuse.session-header', 'a DELETE without a session', http({ method: 'DELETE', json: false })],
  ['sdk.legacy-sse', 'a message posted to a legacy SSE stream', { transport: 'sse' }],
  ['core.stdio-cold', 'a 2025-era handshake, ping or core list before the SDK serves the connection', { transport: 'stdio', sdkServes: false, cold: true }],
  ['sdk.stdio', 'any other line before the SDK serves the connection', { transport: 'stdio', sdkServes: false, cold: false }],
  ['sdk.stdio', 'every line once the SDK serves it', { transport: 'stdio', sdkServes: true, cold: true }],
];

describe('decideRoute', () => {
  it.each(TABLE)('%s: %s', (route, _what, facts) => {
    expect(decideRoute(facts)).toBe(route);
  });

  it('has a row for every route', () => {
    expect(new Set(TABLE.map(([route]) => route))).toEqual(new Set(ROUTES));
  });

  it('asks for the era only where a route depends on it (classifying costs as much as a small call)', () => {
    let asked = 0;
    const legacy = () => {
      asked++;
      return true;
    };
    decideRoute(http({ legacy, call: coreCall('2026') }));
    decideRoute(http({ legacy, sessionHeader: true, call: coreCall('2025'), coreSession: true }));
    decideRoute(http({ legacy, sessionHeader: true }));
    decideRoute(http({ legacy, method: 'GET', json: false }));
    expect(asked).toBe(0);
    decideRoute(http({ legacy }));
    expect(asked).toBe(1);
  });
});

const head = (over: Partial<HttpHead> = {}): HttpHead => ({
  closed: false,
  endpoint: true,
  method: 'POST',
  origin: false,
  encoded: false,
  contentLength: '42',
  plainJson: true,
  maxPayloadBytes: 1000,
  ...over,
});

describe('httpReader', () => {
  it.each([
    ['lane', 'a JSON POST to /mcp with its length', head()],
    ['lane', 'a bodiless GET (a session stream)', head({ method: 'GET', contentLength: undefined, plainJson: false })],
    ['lane', 'a DELETE with Content-Length 0', head({ method: 'DELETE', contentLength: '0', plainJson: false })],
    ['express', 'any other path', head({ endpoint: false })],
    ['express', 'a closed lane (auth on, its guard cannot run ahead)', head({ closed: true })],
    ['express', 'a browser request (Origin: CORS is the express chain’s)', head({ origin: true })],
    ['express', 'a compressed or chunked body', head({ encoded: true })],
    ['express', 'a GET with a body', head({ method: 'GET', contentLength: '5' })],
    ['express', 'another content type', head({ plainJson: false })],
    ['express', 'a body past the cap', head({ contentLength: '1001' })],
    ['express', 'no Content-Length', head({ contentLength: undefined })],
    ['express', 'an empty body', head({ contentLength: '0' })],
    ['express', 'another method', head({ method: 'PUT' })],
  ] as Array<['lane' | 'express', string, HttpHead]>)('%s: %s', (reader, _what, h) => {
    expect(httpReader(h)).toBe(reader);
  });
});
