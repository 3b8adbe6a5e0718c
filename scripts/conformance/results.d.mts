/** Types of results.mjs, for the TypeScript test that imports it. */
export type ScenarioKind = 'passed' | 'failed' | 'skipped' | 'no-checks';
export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  name?: string;
  description?: string;
  errorMessage?: string;
  details?: Record<string, unknown>;
}
export interface Note {
  id: string;
  reason: string;
}
export interface ScenarioResult {
  kind: ScenarioKind;
  /** Checks that succeeded. */
  passed: number;
  failures: Note[];
  warnings: Note[];
  skips: Note[];
}
export interface Scenario extends ScenarioResult {
  name: string;
  /** The alpha's "Not scored" tag (extension, pending, added-after-release). */
  notScored?: string;
}
export declare const scenarioOf: (dir: string) => string;
export declare function classifyScenario(checks: Check[]): ScenarioResult;
export declare function summaryScenarios(output: string): { names: Array<{ name: string; failed: number }>; notScored: Map<string, string> } | undefined;
export declare function readScenarios(output: string, outputDir: string): Scenario[] | undefined;
export declare function verdict(
  scenarios: Scenario[],
  opts: { expected: number; expectedSkips?: Record<string, string> },
): { problems: string[]; counts: { passed: number; failed: number; skipped: number; noChecks: number; total: number } };
export declare function formatScenarios(scenarios: Scenario[], opts?: { expectedSkips?: Record<string, string>; noChecks?: Record<string, string> }): string[];
