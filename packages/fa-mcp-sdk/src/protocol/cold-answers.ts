/**
 * The first answers of a 2025-era stdio connection, given before the SDK is
 * loaded (transport/stdio.ts): `initialize`, `ping` and the lists the core
 * serves, byte for byte what the SDK path answers. A list runs the SDK path's
 * handler: the same operation through the core's pipeline, the same page
 * (list-pages.ts), the same error mapping (error-log.ts), under the same wire
 * observation (metrics, spans, debug channels, trace sink).
 *
 * It takes only messages whose reading cannot differ from the SDK's (see
 * cold-message.ts); everything else, and everything once the SDK has the
 * connection, goes the SDK path.
 */
import type { Core } from '../core/core.js';
import { runOperation } from '../core/operation.js';
import type { AuthInfo } from '../core/request-context.js';
import type { WireRequestScope } from '../core/telemetry.js';
import type { JsonObject } from '../core/types.js';
import { serverCapabilities } from './capabilities.js';
import { coldInitializeParams, coldListParams, isColdPing, type ColdInitialize, type ColdRequest } from './cold-message.js';
import { claimedByExtension } from './core-methods.js';
import { loggedWireError } from './error-log.js';
import { LIST_PAGES, type ListMethod } from './list-pages.js';
import { contextFromFacts, type ContextSource } from './request-context-builder.js';
import { serverImplementation } from './server-identity.js';
import { LEGACY_PROTOCOL_VERSIONS } from './wire-constants.js';
import { answerOnceRecorded, observeRequest, type AnswerMessage } from './observe-request.js';

export interface ColdAnswersOptions {
  core: Core;
  /** Tasks are served (`mcp.tasks.enabled`): declared at initialize. */
  tasks: boolean;
  /** The identity of requests without their own (stdio started with a token). */
  defaultAuth?: AuthInfo;
}

export interface ColdAnswers {
  /** Whether the message is one answered here, at this point of the connection. */
  takes(message: ColdRequest): boolean;
  /** The answer line (with its newline) to a message `takes` accepted; undefined for a notification. */
  answer(message: ColdRequest): Promise<string | undefined>;
  /** The client's initialize params, once answered here (the SDK is given them again). */
  readonly handshake: ColdInitialize | undefined;
  /** Hands the connection's observation over (to the SDK's wire tap), or ends it. */
  takeConnection(): (() => void) | undefined;
}

/**
 * Which lists an SDK server instance serves with the core's handler (server-factory.ts, install).
 * Resources given as a function are listed by the SDK path: the function sees the connection's
 * session there (`context.session`), which does not exist before the SDK serves the connection.
 */
function servesList(core: Core, method: ListMethod): boolean {
  const { registry } = core;
  const served =
    method === 'tools/list'
      ? registry.hasTools
      : method === 'prompts/list'
        ? registry.prompts.size > 0
        : registry.hasResources && !(method === 'resources/list' && registry.resourceSource !== undefined);
  return served && !claimedByExtension(core, method);
}

const isListMethod = (method: string): method is ListMethod => Object.hasOwn(LIST_PAGES, method);

/** What the SDK's stdio transport writes for a message. */
const line = (message: object): string => `${JSON.stringify(message)}\n`;

export function createColdAnswers(opts: ColdAnswersOptions): ColdAnswers {
  const { core } = opts;
  const wire = core.telemetry.wire;
  let handshake: ColdInitialize | undefined;
  let closeConnection: (() => void) | undefined;
  const source: ContextSource = {
    era: '2025',
    transport: 'stdio',
    client: {
      getClientCapabilities: () => handshake?.capabilities,
      getClientVersion: () => handshake?.clientInfo,
    },
    ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}),
  };

  const takes = (m: ColdRequest): boolean => {
    if (!handshake) return m.method === 'initialize' && m.id !== undefined && coldInitializeParams(m.params) !== undefined;
    if (m.id === undefined) return m.method === 'notifications/initialized' && m.params === undefined;
    if (m.method === 'ping') return isColdPing(m.params);
    return isListMethod(m.method) && servesList(core, m.method) && coldListParams(m.params);
  };

  /** The SDK's own answer to initialize (its _oninitialize), from what its instance is built with (server-options.ts). */
  const initialize = (params: ColdInitialize): object => {
    handshake = params;
    closeConnection = wire.connection('2025', 'stdio');
    const requested = params.protocolVersion;
    return {
      protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : LEGACY_PROTOCOL_VERSIONS[0],
      capabilities: serverCapabilities(core, '2025', opts.tasks),
      serverInfo: serverImplementation(core),
      ...(core.instructions ? { instructions: core.instructions } : {}),
    };
  };

  const list = async (method: ListMethod, params: JsonObject | undefined, scope: WireRequestScope): Promise<object> => {
    const rc = contextFromFacts(source, { scope });
    const { name, page } = LIST_PAGES[method];
    const input = { method, target: { kind: 'list' as const, name }, ctx: rc, params: params ?? {}, signal: new AbortController().signal };
    return runOperation(core, input, (op) => page(core, op, (params?.cursor as string | undefined) ?? undefined));
  };

  const answer = async (m: ColdRequest): Promise<string | undefined> => {
    if (m.id === undefined) {
      wire.notification('in', m.method, m.params, '2025', 'stdio');
      return undefined;
    }
    const { id } = m;
    const observed = observeRequest(wire, { method: m.method, id, ...(m.params ? { params: m.params } : {}), era: '2025', transport: 'stdio', ...(opts.defaultAuth ? { auth: opts.defaultAuth } : {}) });
    const { scope } = observed;
    let answer: AnswerMessage;
    try {
      const result = await scope.run(async () => {
        if (m.method === 'initialize') return initialize(coldInitializeParams(m.params) as ColdInitialize);
        if (m.method === 'ping') return {};
        return list(m.method as ListMethod, m.params, scope);
      });
      answer = { result, jsonrpc: '2.0', id };
    } catch (err) {
      const { code, message, data } = loggedWireError(err, scope.requestId, scope.logger ?? core.logger);
      answer = { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
    }
    return line(await answerOnceRecorded(observed, answer));
  };

  return {
    takes,
    answer,
    get handshake() {
      return handshake;
    },
    takeConnection() {
      const close = closeConnection;
      closeConnection = undefined;
      return close;
    },
  };
}
