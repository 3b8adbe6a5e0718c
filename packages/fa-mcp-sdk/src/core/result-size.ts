/**
 * The serialized size of tool results (UTF-8 bytes of their JSON), measured
 * once per result object and shared by the steps that need it: the size cap
 * (cap-result.ts) measures every result, and the metrics step
 * (tool-metrics.ts) records the size of the same object without serializing
 * it again. One instance per server (createCore), passed to both.
 *
 * A result is measured as it is when first asked about: a consumer step that
 * changes a result object in place after the cap measured it (instead of
 * returning a new one) is recorded with the size the cap saw.
 */
export class ResultSizes {
  private readonly known = new WeakMap<object, number>();

  /** The size of `result`'s JSON in bytes; throws as JSON.stringify does (a cycle, a BigInt). */
  of(result: unknown): number {
    if (result === null || typeof result !== 'object') return Buffer.byteLength(JSON.stringify(result) ?? '');
    let size = this.known.get(result);
    if (size === undefined) {
      size = Buffer.byteLength(JSON.stringify(result) ?? '');
      this.known.set(result, size);
    }
    return size;
  }
}
