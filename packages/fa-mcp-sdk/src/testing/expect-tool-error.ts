/** Asserts that a promise of a tool call fails with a JSON-RPC error of the given code; returns the error. */
export interface ProtocolErrorLike {
  code: number;
  message: string;
  data?: unknown;
}

export async function expectToolError(call: Promise<unknown>, code: number, messageIncludes?: string): Promise<ProtocolErrorLike> {
  let result: unknown;
  try {
    result = await call;
  } catch (err) {
    const e = err as Partial<ProtocolErrorLike>;
    if (typeof e.code !== 'number') throw new Error(`expected a JSON-RPC error ${code}, got ${String(err)}`);
    if (e.code !== code) throw new Error(`expected JSON-RPC error ${code}, got ${e.code}: ${e.message}`);
    if (messageIncludes && !String(e.message).includes(messageIncludes)) {
      throw new Error(`expected the error message to include "${messageIncludes}", got "${e.message}"`);
    }
    return e as ProtocolErrorLike;
  }
  throw new Error(`expected JSON-RPC error ${code}, but the call succeeded: ${JSON.stringify(result).slice(0, 300)}`);
}
