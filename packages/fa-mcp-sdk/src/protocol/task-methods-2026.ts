/**
 * The methods of the 2026-07-28 tasks extension (SEP-2663) on a per-request
 * SDK server: `tasks/get` (the task with its result, error or outstanding
 * input requests inlined), `tasks/update` (answers to input requests) and
 * `tasks/cancel`. A request whose client did not declare the extension is
 * refused with -32021; a task that is unknown, expired or someone else's is
 * -32602 (one answer for all three: no existence oracle). The SDK checks the
 * `Mcp-Name` header against `params.taskId` before these run.
 */
import { fromJsonSchema, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { callerKey } from '../core/caller-key.js';
import type { Core } from '../core/core.js';
import { MissingClientCapabilityError, ValidationError } from '../core/errors.js';
import type { RequestContext } from '../core/request-context.js';
import { TASKS_EXTENSION_ID } from '../core/steps/task-support.js';
import type { JsonObject } from '../core/types.js';
import { fitsKind } from '../core/client-input.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { SdkOperationRunner } from './sdk-operation.js';
import { declaresTasksExtension } from './task-launch-2026.js';
import { toDetailedTask } from './task-wire-2026.js';

const taskIdParams = {
  type: 'object',
  properties: { taskId: { type: 'string', minLength: 1 } },
  required: ['taskId'],
} as const;


type InputKindOf = 'elicitation' | 'sampling' | 'roots';
const KIND_OF_METHOD: Record<string, InputKindOf> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Checks each answer against the request it answers (shape, and the requestedSchema of accepted forms). */
function checkAnswers(core: Core, outstanding: Record<string, unknown>, responses: Record<string, unknown>): void {
  for (const [key, answer] of Object.entries(responses)) {
    const request = outstanding[key] as { method?: string; params?: JsonObject } | undefined;
    if (!request) continue; // not outstanding: ignored
    const kind = KIND_OF_METHOD[String(request.method)];
    if (!kind) continue;
    if (!fitsKind(kind, answer)) {
      throw new ValidationError(`The answer to input request "${key}" is not a ${request.method} result`, { field: `inputResponses.${key}`, reason: 'wrong shape' });
    }
    const schema = request.params?.requestedSchema;
    if (kind === 'elicitation' && answer.action === 'accept' && schema && typeof schema === 'object') {
      const outcome = core.registry.validator.validate(schema as JsonObject, answer.content ?? {});
      if (!outcome.ok) {
        throw new ValidationError(`The answer to input request "${key}" does not match its requestedSchema`, { field: `inputResponses.${key}`, issues: outcome.issues });
      }
    }
  }
}

/** Each method runs through the core's pipeline (`runOp`), its target the task (`{ kind: 'task', name: taskId }`). */
export function registerTaskMethods2026(server: McpServer, core: Core, tasks: TaskManager, runOp: SdkOperationRunner): void {
  const serve = (method: string, schema: object, body: (params: JsonObject, rc: RequestContext, owner: string, ctx: ServerContext) => Promise<Record<string, unknown>>) => {
    server.server.setRequestHandler(method, { params: fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0]) }, (value, ctx) => {
      const params = value as JsonObject;
      return runOp(ctx, { method, target: { kind: 'task', name: String(params.taskId ?? '') }, params }, async (op) => {
        if (!declaresTasksExtension(op.ctx)) {
          throw new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION_ID]: {} } }, `${method} needs the ${TASKS_EXTENSION_ID} extension in the request's client capabilities`);
        }
        return (await body(params, op.ctx, callerKey(op.ctx, 'subject'), ctx)) as never;
      });
    });
  };

  serve('tasks/get', taskIdParams, async (params, _rc, owner) => toDetailedTask(await tasks.get(String(params.taskId), owner)));

  // The SDK lifts `inputResponses` out of the params of every 2026-07-28 request (ctx.mcpReq),
  // keeping the bare answers and naming the keys of wrapped ones it dropped.
  serve('tasks/update', taskIdParams, async (params, _rc, owner, ctx) => {
    // The answers as the client sent them (wrapped ones included) are held to mcp.tasks.maxUpdateBytes first.
    tasks.inputs.assertAnswerSize(params.inputResponses ?? ctx.mcpReq.inputResponses ?? {});
    const responses = ctx.mcpReq.inputResponses as Record<string, unknown> | undefined;
    if (!responses) {
      throw new ValidationError('tasks/update needs inputResponses: an object of answers keyed by input request', { field: 'inputResponses', reason: 'missing or not an object' });
    }
    const record = await tasks.get(String(params.taskId), owner);
    const outstanding = record.inputRequests ?? {};
    const dropped = (ctx.mcpReq.droppedInputResponseKeys ?? []).filter((key) => key in outstanding);
    if (dropped.length > 0) {
      throw new ValidationError(`The answer to input request "${dropped[0]}" must be the bare result, not wrapped in { method, result }`, {
        field: `inputResponses.${dropped[0]}`,
        reason: 'wrong shape',
      });
    }
    checkAnswers(core, outstanding, responses);
    // Keys that answer nothing outstanding (unknown, answered already, task finished) are ignored: the ack is the same.
    await tasks.inputs.answer(record.taskId, responses);
    return {};
  });

  serve('tasks/cancel', taskIdParams, async (params, _rc, owner) => {
    await tasks.cancel(String(params.taskId), owner);
    return {};
  });
}
