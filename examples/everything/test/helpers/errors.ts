/** The JSON-RPC error a client's promise rejected with (every official client's error carries `code` and `data`). */
export interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export async function rejection(promise: Promise<unknown>): Promise<RpcError> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (err: unknown) => ({ rejected: err }),
  );
  if ('resolved' in outcome) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(outcome.resolved).slice(0, 300)}`);
  const err = outcome.rejected as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof err?.code !== 'number') throw new Error(`not a JSON-RPC error: ${String(err?.message ?? err)}`);
  return { code: err.code, message: String(err.message), ...(err.data && typeof err.data === 'object' ? { data: err.data as Record<string, unknown> } : {}) };
}
