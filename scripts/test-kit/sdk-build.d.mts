/** Types of sdk-build.mjs, for the TypeScript tests that import it. */
export declare function sdkBuildIsCurrent(env?: NodeJS.ProcessEnv): boolean;
export declare function assertSdkBuildIsCurrent(): void;
