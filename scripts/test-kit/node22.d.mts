/** Types of node22.mjs, for the TypeScript tests that import it. */
export declare function node22Layout(root: string): { dir: string; pinned: string; stamp: string; node: string; inspector: string };
export type Node22Status = { ok: true; node: string; version: string; inspector: string; inspectorVersion: string } | { ok: false; reason: string };
export declare function node22Status(root: string): Node22Status;
