/**
 * `POST <base>/tools/<name>`: a tool called over REST, through the same
 * pipeline as MCP tools/call (rate limits, validation, timeouts, result cap,
 * metrics and spans). The answer is the CallToolResult as JSON; protocol
 * errors keep their HTTP status. Features that need an MCP client (elicitation,
 * sampling, roots) are refused. Observed like an MCP request (request metrics,
 * span, wire log, the audit record as a `tools/call`): with the audit trail in
 * `sync` mode the answer waits for its record, and is -32006 when it cannot be
 * written.
 */
import express, { type Request, type Response, type Router } from 'express';
import { ARGUMENT_ERRORS_STATE } from '../core/argument-errors.js';
import type { Core } from '../core/core.js';
import { toWireError } from '../core/error-mapping.js';
import { MCP_ERROR_CODES, ServerError } from '../core/errors.js';
import type { Operation } from '../core/pipeline.js';
import type { RequestContext } from '../core/request-context.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import { openScope } from '../protocol/observe-request.js';
import { frontFactsOf } from '../transport/http/request-front.js';
import { sendRestError } from './rest-errors.js';

function restClientChannel(ctx: RequestContext, core: Core): IClientChannel {
  const unavailable = (what: string) => Promise.reject(new ServerError(`${what} needs an MCP client; it is not available over REST`, 400, { feature: what }, MCP_ERROR_CODES.METHOD_NOT_FOUND));
  const logger = ctx.logger ?? core.logger;
  return {
    log: async (level, data) => logger.info({ level, data }, 'tool log (REST call)'),
    elicit: () => unavailable('elicitation'),
    sample: () => unavailable('sampling'),
    listRoots: () => unavailable('roots'),
    resumed: false,
    notify: async () => undefined,
  };
}

export function createToolRoutes(core: Core, contextOf: (req: Request, res: Response) => RequestContext): Router {
  const router = express.Router();
  router.post('/:name', (req, res) => {
    res.locals.restRoute = '/tools/:name';
    const ctx = contextOf(req, res);
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableEnded) controller.abort(new Error('client closed the connection'));
    };
    res.once('close', onClose);
    const body = req.body === undefined || req.body === null ? {} : (req.body as JsonObject);
    const params = { name: req.params.name, arguments: body };
    // Observed here: the HTTP front records no refusal of its own for this request's error answers.
    const scope = openScope(core.telemetry.wire, {
      method: 'tools/call',
      id: ctx.requestId,
      params,
      era: ctx.era,
      transport: ctx.transport,
      requestId: ctx.requestId,
      ...(ctx.auth ? { auth: ctx.auth } : {}),
      ...(ctx.remoteAddress ? { remoteAddress: ctx.remoteAddress } : {}),
    }, frontFactsOf(req));
    if (scope.audit) ctx.audit = scope.audit;
    const op: Operation = {
      method: 'tools/call',
      target: { kind: 'tool', name: req.params.name },
      caller: ctx.auth,
      ctx,
      params,
      signal: controller.signal,
      client: restClientChannel(ctx, core),
      sendProgress: () => undefined,
      // Invalid arguments stay an HTTP 400 with the field here, whatever mcp.validation.argumentErrors says.
      state: new Map([[ARGUMENT_ERRORS_STATE.mode, 'protocol']]),
    };
    scope
      .run(() => core.pipeline.run(op, core.executeTool))
      .then(
        async (result) => {
          if (controller.signal.aborted) return void (await scope.end({ cancelled: true }));
          // The answer waits for its record (sync mode); a record that cannot be written fails it.
          await scope.end({ result });
          if (!res.headersSent) res.status(200).json(result);
        },
        async (err: unknown) => {
          const wire = toWireError(err, ctx.requestId);
          await scope.end(controller.signal.aborted ? { cancelled: true } : { error: { code: wire.code, message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } });
          throw err;
        },
      )
      .catch((err: unknown) => sendRestError(res, err, ctx.requestId, ctx.logger ?? core.logger))
      .finally(() => res.off('close', onClose));
  });
  return router;
}
