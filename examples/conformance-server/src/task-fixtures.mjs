// @ts-check
/**
 * The fixtures of the tasks extension scenarios (tasks-*, SEP-2663) of the
 * conformance suite 0.2.0-alpha.12. Tasks are on in config/default.yaml; a
 * tool says whether it may run as a task with `execution.taskSupport`, and the
 * framework decides per request (a client that declares the
 * io.modelcontextprotocol/tasks extension gets a task handle).
 */
import { textContent, formatContentResult, ToolExecutionError } from 'fa-mcp-sdk';

/** @typedef {import('fa-mcp-sdk').ITool} ITool */

/** @param {number} ms @param {AbortSignal} signal */
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** @param {string} field @param {'string' | 'boolean'} type @param {string} message */
const form = (field, type, message) => ({
  message,
  requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
});

/** @param {import('fa-mcp-sdk').JsonObject} reply @param {string} field */
const accepted = (reply, field) => (reply.action === 'accept' ? /** @type {Record<string, unknown>} */ (reply.content ?? {})[field] : undefined);

/** @type {ITool[]} */
export const taskTools = [
  {
    name: 'greet',
    description: 'Greets a name (synchronous only)',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    handler: ({ arguments: args }) => formatContentResult([textContent(`Hello, ${String(args.name)}!`)]),
  },
  {
    name: 'slow_compute',
    description: 'Waits `seconds` seconds, then reports; runs as a task when the client can take one',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } }, required: ['seconds'] },
    execution: { taskSupport: 'optional' },
    timeoutMs: 120_000,
    handler: async ({ arguments: args, signal }) => {
      const seconds = Number(args.seconds);
      await sleep(seconds * 1000, signal);
      return formatContentResult([textContent(`Computed ${String(args.label ?? 'result')} after ${seconds} s`)]);
    },
  },
  {
    name: 'failing_job',
    description: 'Runs about a second as a task, then reports a tool error',
    inputSchema: { type: 'object', properties: {} },
    execution: { taskSupport: 'required' },
    handler: async ({ signal }) => {
      await sleep(1000, signal);
      throw new ToolExecutionError('The job failed: the input data is inconsistent');
    },
  },
  {
    name: 'protocol_error_job',
    description: 'Runs as a task and breaks with an internal error',
    inputSchema: { type: 'object', properties: {} },
    execution: { taskSupport: 'required' },
    handler: async ({ signal }) => {
      await sleep(200, signal);
      throw new Error('worker crashed');
    },
  },
  {
    name: 'confirm_delete',
    description: 'Asks the user to confirm, then deletes the file (pretend)',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
    execution: { taskSupport: 'optional' },
    handler: async ({ arguments: args, client }) => {
      const reply = await client.elicit(form('confirm', 'boolean', `Delete ${String(args.filename)}?`));
      const text = accepted(reply, 'confirm') === true ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`;
      return formatContentResult([textContent(text)]);
    },
  },
  {
    name: 'multi_input',
    description: 'Asks two questions at once, then reports both answers',
    inputSchema: { type: 'object', properties: {} },
    execution: { taskSupport: 'optional' },
    handler: async ({ client }) => {
      const [name, confirm] = await Promise.all([
        client.elicit(form('name', 'string', 'Your name?')),
        client.elicit(form('confirm', 'boolean', 'Proceed?')),
      ]);
      return formatContentResult([textContent(`name=${String(accepted(name, 'name'))}, confirm=${String(accepted(confirm, 'confirm'))}`)]);
    },
  },
  {
    name: 'test_tool_with_task',
    description: 'Asks for a name in the request, then goes on as a task',
    inputSchema: { type: 'object', properties: {} },
    execution: { taskSupport: 'required', taskStart: 'handler' },
    handler: async ({ client, startTask, signal }) => {
      const reply = await client.elicit(form('name', 'string', 'What is your name?'), { key: 'user_name' });
      await startTask();
      await sleep(300, signal);
      return formatContentResult([textContent(`Hello, ${String(accepted(reply, 'name'))}! (finished as a task)`)]);
    },
  },
];
