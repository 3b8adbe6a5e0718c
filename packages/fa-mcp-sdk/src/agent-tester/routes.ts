/**
 * The Agent Tester's HTTP routes, mounted at `agentTester.path` behind the
 * server's Host/Origin guard and, when auth is on, its authentication:
 *
 *   GET    <path>                         the page
 *   GET    <path>/api/info                model name, tools, prompts, resources
 *   POST   <path>/api/chat                { message } -> { session, trace } (continues the caller's session)
 *   POST   <path>/api/chat/test           { prompt, maxTurns?, systemPrompt? } -> trace (one conversation, no session)
 *   DELETE <path>/api/session             forgets the caller's session
 *   POST   <path>/api/view/tools/call     { name, arguments } -> { result } | { error } (a view's call, through the session)
 *   POST   <path>/api/view/resources/read { uri } -> { result } | { error }
 */
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { AgentTesterConfig } from '../config/sections/agent-tester.js';
import type { CoreLogger } from '../core/core.js';
import { callerCredentials, sessionKeyOf } from './caller.js';
import type { ChatModel } from './chat-types.js';
import { runAgentConversation } from './conversation-runner.js';
import { AgentTesterRequestError, ModelEndpointError } from './errors.js';
import { connectToSelf, type SelfConnection, type SelfConnectionEra } from './mcp-connection.js';
import { PAGE_CSP, renderPage } from './page/page.js';
import { createRequestBodies } from './request-bodies.js';
import { readServerContext } from './server-context.js';
import { appResourceUriOf } from '../apps/tool-view.js';
import { AgentSessionStore } from './session-store.js';
import type { AgentTrace } from './trace-types.js';

export interface AgentTesterRouterOptions {
  settings: AgentTesterConfig;
  /** The server's own MCP endpoint on loopback; known once the server listens. */
  mcpUrl: () => string;
  era: SelfConnectionEra;
  model: ChatModel;
  logger: CoreLogger;
  serverName: string;
  /** Largest JSON body accepted, in bytes. */
  maxBodyBytes: number;
}

type Handler = (req: Request, res: Response) => Promise<void>;

export function createAgentTesterRouter(opts: AgentTesterRouterOptions): Router {
  const { settings } = opts;
  const limits = settings.limits;
  const sessions = new AgentSessionStore({ maxSessions: limits.maxSessions, maxAgeMs: limits.sessionMaxAgeMs, idleMs: limits.sessionIdleMs });
  const bodies = createRequestBodies({ maxPromptChars: limits.maxPromptChars, maxTurns: limits.maxTurns });
  const page = renderPage({ basePath: settings.path, serverName: opts.serverName });
  const configured = settings.model.baseUrl !== '';
  const router = express.Router();
  const json = express.json({ limit: opts.maxBodyBytes, strict: true, type: ['application/json', 'application/*+json'] });

  const handle = (fn: Handler) => (req: Request, res: Response, next: (err?: unknown) => void) => void fn(req, res).catch(next);
  const requireModel = () => {
    if (!configured) throw new ModelEndpointError('not_configured', 'No model endpoint is configured: set agentTester.model.baseUrl (AGENT_TESTER_BASE_URL)');
  };
  /** Aborted when the caller goes away before the answer. */
  const callerGone = (res: Response): AbortSignal => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    return controller.signal;
  };
  type ConversationExtra = { history?: AgentTrace['messages']; maxTurns?: number; systemPrompt?: string };
  // Conversations running at once (page and headless together): each holds a model request and an MCP connection.
  let running = 0;
  const conversation = async (req: Request, res: Response, prompt: string, extra: ConversationExtra) => {
    if (running >= limits.maxConcurrentConversations) {
      res.setHeader('Retry-After', '1');
      throw new AgentTesterRequestError(429, 'too_many_conversations', `${limits.maxConcurrentConversations} conversations are running already (agentTester.limits.maxConcurrentConversations); try again shortly`);
    }
    running++;
    try {
      return await runOne(req, res, prompt, extra);
    } finally {
      running--;
    }
  };
  const runOne = (req: Request, res: Response, prompt: string, extra: ConversationExtra) => {
    const headers = callerCredentials(req);
    return runAgentConversation({
      mcpUrl: opts.mcpUrl(),
      era: opts.era,
      model: opts.model,
      prompt,
      settings: { maxTurns: extra.maxTurns ?? limits.maxTurns, conversationTimeoutMs: limits.conversationTimeoutMs, systemPrompt: extra.systemPrompt ?? settings.systemPrompt },
      signal: callerGone(res),
      ...(headers ? { headers } : {}),
      ...(extra.history ? { history: extra.history } : {}),
    });
  };
  const logTrace = (kind: string, trace: AgentTrace) =>
    opts.logger.info(
      { agentTester: { kind, stopReason: trace.stopReason, toolCalls: trace.toolCalls.map((c) => ({ name: c.name, isError: c.isError, durationMs: c.durationMs })), modelCalls: trace.modelCalls.length, tokens: trace.usage.totalTokens, durationMs: trace.durationMs, ...(trace.error ? { error: trace.error.message } : {}) } },
      `agent tester: ${trace.stopReason}`,
    );
  const withSelf = async <T>(req: Request, fn: (c: SelfConnection) => Promise<T>): Promise<T> => {
    const headers = callerCredentials(req);
    let connection: SelfConnection;
    try {
      connection = await connectToSelf({ url: opts.mcpUrl(), era: opts.era, ...(headers ? { headers } : {}) });
    } catch (err) {
      throw new AgentTesterRequestError(502, 'server_unreachable', `MCP connection to this server failed: ${(err as Error).message ?? String(err)}`);
    }
    try {
      return await fn(connection);
    } finally {
      await connection.close();
    }
  };

  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page);
  });

  router.get(
    '/api/info',
    handle(async (req, res) => {
      const context = await withSelf(req, (c) => readServerContext(c.client, settings.systemPrompt));
      res.json({
        model: settings.model.model,
        configured,
        limits: { maxTurns: limits.maxTurns, maxPromptChars: limits.maxPromptChars },
        server: { name: context.name, version: context.version, protocolVersion: context.protocolVersion },
        tools: [...context.tools.values()].map((t) => ({ name: t.name, description: t.description, view: appResourceUriOf(t) ?? null, model: context.functions.tools.some((f) => context.functions.mcpName(f.function.name) === t.name) })),
        prompts: context.prompts,
        resources: context.resources,
      });
    }),
  );

  router.post(
    '/api/chat',
    json,
    handle(async (req, res) => {
      const body = bodies.chat(req.body);
      requireModel();
      const key = sessionKeyOf(req, res, settings.path, true) as string;
      const session = sessions.getOrCreate(key);
      if (session.busy) throw new AgentTesterRequestError(409, 'session_busy', 'A conversation of this session is still running; wait for its answer');
      session.busy = true;
      try {
        const outcome = await conversation(req, res, body.message, { history: session.history });
        session.history = outcome.history;
        session.turns++;
        logTrace('chat', outcome.trace);
        res.json({ session: { turns: session.turns, createdAt: new Date(session.createdAt).toISOString() }, trace: outcome.trace });
      } finally {
        session.busy = false;
      }
    }),
  );

  router.post(
    '/api/chat/test',
    json,
    handle(async (req, res) => {
      const body = bodies.chatTest(req.body);
      requireModel();
      const outcome = await conversation(req, res, body.prompt, {
        ...(body.maxTurns !== undefined ? { maxTurns: body.maxTurns } : {}),
        ...(body.systemPrompt !== undefined ? { systemPrompt: body.systemPrompt } : {}),
      });
      logTrace('test', outcome.trace);
      res.json(outcome.trace);
    }),
  );

  router.delete('/api/session', (req, res) => {
    const key = sessionKeyOf(req, res, settings.path, false);
    res.json({ deleted: key !== undefined && sessions.delete(key) });
  });

  const viewRequest = (run: (c: SelfConnection, body: Record<string, unknown>) => Promise<unknown>, parse: (b: unknown) => Record<string, unknown>) =>
    handle(async (req, res) => {
      const body = parse(req.body);
      const key = sessionKeyOf(req, res, settings.path, false);
      if (!key || !sessions.get(key)) throw new AgentTesterRequestError(404, 'no_session', 'No Agent Tester session: views act within a chat session');
      try {
        res.json({ result: await withSelf(req, (c) => run(c, body)) });
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown };
        res.json({ error: { code: typeof e.code === 'number' ? e.code : -32603, message: typeof e.message === 'string' ? e.message : String(err) } });
      }
    });
  router.post('/api/view/tools/call', json, viewRequest((c, b) => c.client.callTool({ name: b.name as string, arguments: (b.arguments ?? {}) as Record<string, unknown> }), (b) => ({ ...bodies.viewToolCall(b) })));
  router.post('/api/view/resources/read', json, viewRequest((c, b) => c.client.readResource({ uri: b.uri as string }), (b) => ({ ...bodies.viewResourceRead(b) })));

  router.use('/api', (_req, res) => void res.status(404).json({ error: 'not_found', message: 'No such Agent Tester API route' }));
  router.use(errorHandler(opts.logger));
  return router;
}

function errorHandler(logger: CoreLogger): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) return next(err);
    const e = err as { type?: string; status?: number; message?: string };
    if (err instanceof AgentTesterRequestError) return void res.status(err.httpStatus).json({ error: err.error, message: err.message });
    if (err instanceof ModelEndpointError) return void res.status(err.httpStatus).json({ error: `model_${err.kind}`, message: err.message });
    if (e?.type === 'entity.parse.failed') return void res.status(400).json({ error: 'invalid_json', message: 'The body is not valid JSON' });
    if (e?.type === 'entity.too.large') return void res.status(413).json({ error: 'too_large', message: 'The body is too large' });
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return void res.status(e.status).json({ error: 'bad_request', message: e.message ?? 'Bad request' });
    logger.error({ err }, 'agent tester request failed');
    res.status(500).json({ error: 'internal', message: `The Agent Tester failed: ${e?.message ?? String(err)}` });
  };
}
