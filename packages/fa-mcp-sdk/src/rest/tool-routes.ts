/**
 * `POST <base>/tools/<name>`: a tool called over REST, through the same
 * pipeline as MCP tools/call (rate limits, validation, timeouts, result cap,
 * metrics and spans). The answer is the CallToolResult as JSON; protocol
 * errors keep their HTTP status. Features that need an MCP client (elicitation,
 * sampling, roots) are refused.
 */
import express, { type Request, type Response, type Router } from 'express';
import { ARGUMENT_ERRORS_STATE } from '../core/argument-errors.js';
import type { Core } from '../core/core.js';
import { MCP_ERROR_CODES, ServerError } from '../core/errors.js';
import type { Operation } from '../core/pipeline.js';
import type { RequestContext } from '../core/request-context.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
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
    const op: Operation = {
      method: 'tools/call',
      target: { kind: 'tool', name: req.params.name },
      caller: ctx.auth,
      ctx,
      params: { name: req.params.name, arguments: body },
      signal: controller.signal,
      client: restClientChannel(ctx, core),
      sendProgress: () => undefined,
      // Invalid arguments stay an HTTP 400 with the field here, whatever mcp.validation.argumentErrors says.
      state: new Map([[ARGUMENT_ERRORS_STATE.mode, 'protocol']]),
    };
    core.pipeline
      .run(op, core.executeTool)
      .then((result) => {
        if (!res.headersSent) res.status(200).json(result);
      })
      .catch((err: unknown) => sendRestError(res, err, ctx.requestId, ctx.logger ?? core.logger))
      .finally(() => res.off('close', onClose));
  });
  return router;
}
