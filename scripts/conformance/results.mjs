// What one conformance suite run says, scenario by scenario, and the runner's verdict on it.
// The suite (0.1.16 and 0.2.0-alpha) writes one `checks.json` per scenario into --output-dir,
// each check with a status: SUCCESS and FAILURE are scored; WARNING is a SHOULD the server did
// not meet; SKIPPED is a check the suite did not run (with its reason); INFO is a trace line.
// Its own summary prints "✓ name: 0 passed, 0 failed" for a scenario that ran nothing: that is
// not a pass, so the kind of each scenario is decided here from its checks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The suite names its result folders `server-<scenario>-<ISO time with - for : and .>`. */
export const scenarioOf = (dir) => dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');

const reasonOf = (check) => check.errorMessage ?? check.details?.message ?? check.details?.note ?? check.description ?? check.id;

/**
 * The kind of one scenario from its checks:
 * - `failed`: a check failed;
 * - `passed`: at least one check succeeded and none failed;
 * - `skipped`: the suite ran no check of it and said why (SKIPPED checks);
 * - `no-checks`: nothing scored, nothing skipped (only INFO and WARNING lines).
 * `warnings` and `skips` (the reasons) come with every kind.
 */
export function classifyScenario(checks) {
  const of = (status) => checks.filter((c) => c.status === status);
  const passed = of('SUCCESS').length;
  const failures = of('FAILURE').map((c) => ({ id: c.id, reason: reasonOf(c) }));
  const warnings = of('WARNING').map((c) => ({ id: c.id, reason: reasonOf(c) }));
  const skips = of('SKIPPED').map((c) => ({ id: c.id, reason: reasonOf(c) }));
  const kind = failures.length > 0 ? 'failed' : passed > 0 ? 'passed' : skips.length > 0 ? 'skipped' : 'no-checks';
  return { kind, passed, failures, warnings, skips };
}

/** "✓ name: N passed, M failed" lines of the suite's summary: the scenarios it ran, in order. */
export function summaryScenarios(output) {
  const start = output.indexOf('=== SUMMARY ===');
  if (start < 0) return undefined;
  const text = output.slice(start);
  const names = [...text.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)].map((m) => ({ name: m[1], failed: Number(m[3]) }));
  // The alpha's "Not scored for <revision>" list: "  ✓ name (extension)".
  const notScored = new Map();
  const at = text.indexOf('Not scored');
  if (at >= 0) for (const m of text.slice(at).matchAll(/^ {2}[✓✗] (\S+) \(([^)]+)\)$/gmu)) notScored.set(m[1], m[2]);
  return { names, notScored };
}

/**
 * Every scenario of a run: the suite's summary names them, the output directory holds their
 * checks. A scenario without a checks.json (the suite could not run it) keeps what the summary said.
 */
export function readScenarios(output, outputDir) {
  const summary = summaryScenarios(output);
  if (!summary) return undefined;
  const files = new Map();
  for (const entry of existsSync(outputDir) ? readdirSync(outputDir) : []) {
    const file = join(outputDir, entry, 'checks.json');
    if (existsSync(file)) files.set(scenarioOf(entry), file);
  }
  return summary.names.map(({ name, failed }) => {
    const file = files.get(name);
    const result = file
      ? classifyScenario(JSON.parse(readFileSync(file, 'utf8')))
      : failed > 0
        ? { kind: 'failed', passed: 0, failures: [{ id: name, reason: 'the suite could not run it (no checks.json; see its output)' }], warnings: [], skips: [] }
        : { kind: 'no-checks', passed: 0, failures: [], warnings: [{ id: name, reason: 'the suite wrote no checks.json for it' }], skips: [] };
    return { name, ...result, ...(summary.notScored.has(name) ? { notScored: summary.notScored.get(name) } : {}) };
  });
}

/**
 * The runner's verdict on one run: what went wrong (empty when all is well), and the counts.
 * `expected`: how many scenarios must pass; `expectedSkips`: { scenario: why } the suite is known
 * to skip. A failed check fails the run; so does a skip not in `expectedSkips` (something the suite
 * should test went untested), an expected skip that did not happen (the list is stale), and fewer
 * passes than expected. A scenario with no checks does not pass and is shown with its warnings,
 * but does not fail the run by itself (a pass turned into no checks still does, by the count).
 */
export function verdict(scenarios, { expected, expectedSkips = {} }) {
  const count = (kind) => scenarios.filter((s) => s.kind === kind).length;
  const counts = { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), noChecks: count('no-checks'), total: scenarios.length };
  const problems = [];
  const failedChecks = scenarios.reduce((n, s) => n + s.failures.length, 0);
  if (failedChecks > 0) problems.push(`${failedChecks} check(s) failed`);
  for (const s of scenarios.filter((x) => x.kind === 'skipped' && !(x.name in expectedSkips))) {
    problems.push(`${s.name} was skipped by the suite and is not an expected skip (${s.skips.map((k) => k.reason).join('; ')})`);
  }
  for (const name of Object.keys(expectedSkips)) {
    const s = scenarios.find((x) => x.name === name);
    if (s && s.kind !== 'skipped') problems.push(`${name} is listed as an expected skip but ran (${s.kind}): update the runner's list`);
  }
  if (counts.passed < expected) problems.push(`${counts.passed} scenarios passed, expected ${expected}`);
  return { problems, counts };
}

const MARK = { passed: '✓ passed   ', failed: '✗ FAILED   ', skipped: '- skipped  ', 'no-checks': '○ no checks' };

/**
 * The report lines of one run: a line per scenario, then its failures, skips and warnings, indented;
 * `expectedSkips` and `noChecks` ({ scenario: why }) add the runner's reason.
 */
export function formatScenarios(scenarios, { expectedSkips = {}, noChecks = {} } = {}) {
  const lines = [];
  for (const s of scenarios) {
    const tag = s.notScored ? ` [${s.notScored}, not scored]` : '';
    const what = {
      passed: `(${s.passed} checks)`,
      failed: `(${s.failures.length} of ${s.passed + s.failures.length} checks failed)`,
      skipped: s.name in expectedSkips ? '(expected)' : '(NOT expected)',
      'no-checks': '(ran nothing the suite scores)',
    }[s.kind];
    lines.push(`${MARK[s.kind]} ${s.name} ${what}${tag}`);
    for (const f of s.failures) lines.push(`      failed: ${f.id}: ${f.reason}`);
    for (const k of s.skips) lines.push(`      skipped: ${k.id}: ${k.reason}`);
    if (s.kind === 'skipped' && s.name in expectedSkips) lines.push(`      expected because: ${expectedSkips[s.name]}`);
    if (s.kind === 'no-checks' && s.name in noChecks) lines.push(`      known: ${noChecks[s.name]}`);
    for (const w of s.warnings) lines.push(`      warning: ${w.id}: ${w.reason}`);
  }
  return lines;
}
