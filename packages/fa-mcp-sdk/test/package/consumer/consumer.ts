/**
 * A consumer's code, compiled by test/package/consumer-types.test.ts against the packed package:
 * every entry point (fa-mcp-sdk, /db, /testing, /stores, /agent-tester), the main types, under
 * `strict` with `skipLibCheck: false`, in a project that has `@types/node` and no other typings
 * (no `@types/express`, no `@types/pg`).
 */
import {
  configSchema,
  createAuthMW,
  formatToolResult,
  getRequestAuth,
  initMcpServer,
  loadConfig,
  ValidationError,
  type AppConfig,
  type HttpHandler,
  type HttpRouter,
  type ITaskStore,
  type ITool,
  type IToolHandlerParams,
  type McpServerData,
  type McpServerHandle,
  type PipelineStep,
  type SchemaNode,
  type TToolHandlerResponse,
} from 'fa-mcp-sdk';
import { getDb, queryMAIN, type DbRecord, type PgPool, type QueryResult, type QueryResultRow } from 'fa-mcp-sdk/db';
import { getJsonFromResult, startTestServer, type TestServer } from 'fa-mcp-sdk/testing';
import { InMemoryTaskStore, PostgresEventStore, runMigrations, TASK_MIGRATIONS, type Migration } from 'fa-mcp-sdk/stores';
import { runAgentConversation, summarizeTrace, type AgentTrace, type ChatModel } from 'fa-mcp-sdk/agent-tester';

interface Row extends QueryResultRow {
  id: number;
}

async function greet({ arguments: args }: IToolHandlerParams): Promise<TToolHandlerResponse> {
  const rows: QueryResult<Row> = await queryMAIN<Row>('SELECT 1 AS id');
  const first: DbRecord | undefined = rows.rows[0];
  if (!first) throw new ValidationError('no rows');
  return formatToolResult({ greeting: `Hello, ${String(args.name)}!`, id: rows.rows[0]?.id });
}

const tool: ITool = {
  name: 'greet',
  description: 'Greets',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: greet,
};

const audit: PipelineStep = { name: 'audit', run: async (_op, next) => next() };
// a built-in store of fa-mcp-sdk/stores goes where McpServerData takes the main entry's contract
const taskStore: ITaskStore = new InMemoryTaskStore({ maxTasks: 100 });
const data: McpServerData = { tools: [tool], steps: [audit], taskStore };
const migrations: readonly Migration[] = TASK_MIGRATIONS;

// a stand-in model for the Agent Tester
const model: ChatModel = {
  model: 'stand-in',
  complete: async () => ({ message: { content: 'done', tool_calls: [] }, finishReason: 'stop' }),
};

const schema: SchemaNode = configSchema;
const config: AppConfig = loadConfig({ cwd: '.', env: {} }).config;

export async function main(): Promise<void> {
  const server: McpServerHandle = await initMcpServer(data, { handleSignals: false, config: { webServer: { port: 0 } } });
  const guard: HttpHandler = createAuthMW(server);
  const app: HttpRouter | undefined = server.http?.app;
  app?.get('/hello', guard, (req, res) => void res.status(200).json({ ok: true, for: getRequestAuth(req)?.subject, path: req.path }));
  const pool: PgPool = await getDb().pool();
  const { rowCount } = await pool.query('SELECT 1');
  await runMigrations(pool, migrations);
  const events = new PostgresEventStore(pool, { maxEventsPerStream: 100 });
  const { trace }: { trace: AgentTrace } = await runAgentConversation({
    mcpUrl: server.url ?? '',
    model,
    prompt: 'Hi',
    settings: { maxTurns: 2, conversationTimeoutMs: 10_000, systemPrompt: '' },
  });
  console.log(summarizeTrace(trace), events);
  const test: TestServer = await startTestServer(data);
  const client = await test.connect();
  const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  const json: unknown = getJsonFromResult(result);
  console.log(json, schema.type, config.webServer.port, rowCount);
  await test.stop();
  await server.stop();
}
