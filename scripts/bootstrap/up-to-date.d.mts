/** Types of up-to-date.mjs, for the TypeScript tests that import it. */
export interface BuildTarget {
  name: string;
  dir: string;
  inputs: string[];
  outputs: string[];
  demo?: boolean;
}
export declare const INSTALL_STAMP: string;
export declare const BUILD_TARGETS: BuildTarget[];
export declare function installHash(root: string): string;
export declare function writeInstallStamp(root: string): void;
export declare function installReason(root: string, env?: NodeJS.ProcessEnv): string | undefined;
export declare function buildReason(root: string, target: BuildTarget, env?: NodeJS.ProcessEnv): string | undefined;
