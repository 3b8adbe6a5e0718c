/** Types of ci-checks.mjs, for the TypeScript tests that import it. */
export declare function inCi(env?: NodeJS.ProcessEnv): boolean;
export declare function serviceAvailable(available: boolean, what: string, fix: string, env?: NodeJS.ProcessEnv): boolean;
export declare function newestFile(paths: string[], skip?: string[]): { path: string; mtimeMs: number };
export declare function buildIsCurrent(build: { name: string; built: string[]; sources: string[]; rebuild: string }, env?: NodeJS.ProcessEnv): boolean;
