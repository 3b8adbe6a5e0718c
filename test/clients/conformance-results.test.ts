/**
 * How the conformance runner (scripts/conformance/run.mjs) reads a suite run: a scenario that ran
 * no scored check, or that the suite skipped, is reported as such with the suite's words, and is
 * not a pass. The checks below are the ones the pinned suites wrote for examples/conformance-server
 * (0.1.16's server-sse-polling at protocol 2025-03-26, 0.2.0-alpha.12's tasks-status-notifications).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyScenario, formatScenarios, readScenarios, verdict, type Check, type Scenario } from '../../scripts/conformance/results.mjs';

const info = (id: string): Check => ({ id, status: 'INFO', description: id });
const ok = (id: string): Check => ({ id, status: 'SUCCESS', description: id });
const SSE_POLLING_0_1_16: Check[] = [
  info('outgoing-request'),
  info('incoming-response'),
  { id: 'server-sse-priming-event', status: 'WARNING', errorMessage: 'Server did not send priming event with id and empty data on POST SSE stream. This is recommended for resumability.' },
  { id: 'server-sse-retry-field', status: 'WARNING', errorMessage: 'Server did not send retry field. This is recommended for controlling client reconnection timing.' },
];
const TASKS_STATUS_SKIPPED: Check[] = [
  {
    id: 'tasks-status-notifications',
    status: 'SKIPPED',
    description: 'Status notifications conformance, pending subscriptions/listen rewrite.',
    errorMessage: 'Skipped: SEP-2663 delivers notifications/tasks via the SEP-2575 subscriptions/listen stream.',
  },
];

const scenario = (name: string, checks: Check[]): Scenario => ({ name, ...classifyScenario(checks) });

describe('the conformance runner', () => {
  it('classifies each scenario by its checks, keeping the reasons and warnings', () => {
    expect(classifyScenario([ok('a'), ok('b'), info('c')])).toMatchObject({ kind: 'passed', passed: 2, failures: [], warnings: [] });
    expect(classifyScenario([ok('a'), { id: 'b', status: 'FAILURE', errorMessage: 'wrong' }])).toMatchObject({ kind: 'failed', failures: [{ id: 'b', reason: 'wrong' }] });
    expect(classifyScenario(TASKS_STATUS_SKIPPED)).toMatchObject({ kind: 'skipped', passed: 0, skips: [{ id: 'tasks-status-notifications', reason: expect.stringContaining('SEP-2663') }] });
    // A skip the alpha writes with its reason in details.message:
    expect(classifyScenario([{ id: 'x', status: 'SKIPPED', details: { message: 'server answered 405' } }]).skips).toEqual([{ id: 'x', reason: 'server answered 405' }]);
    const none = classifyScenario(SSE_POLLING_0_1_16);
    expect(none.kind).toBe('no-checks');
    expect(none.warnings.map((w) => w.id)).toEqual(['server-sse-priming-event', 'server-sse-retry-field']);
    expect(classifyScenario([])).toMatchObject({ kind: 'no-checks' });
  });

  it('a scenario with no checks or skipped is not counted as passed', () => {
    const scenarios = [scenario('ping', [ok('ping')]), scenario('server-sse-polling', SSE_POLLING_0_1_16), scenario('tasks-status-notifications', TASKS_STATUS_SKIPPED)];
    const v = verdict(scenarios, { expected: 1, expectedSkips: { 'tasks-status-notifications': 'known' } });
    expect(v.counts).toEqual({ passed: 1, failed: 0, skipped: 1, noChecks: 1, total: 3 });
    expect(v.problems).toEqual([]);
    // The suite's summary counted all three as passed; three expected passes fail the run now.
    expect(verdict(scenarios, { expected: 3, expectedSkips: { 'tasks-status-notifications': 'known' } }).problems).toEqual(['1 scenarios passed, expected 3']);
  });

  it('an unexpected skip fails the run, and so does an expected skip that ran', () => {
    const skipped = [scenario('tasks-status-notifications', TASKS_STATUS_SKIPPED)];
    expect(verdict(skipped, { expected: 0 }).problems).toEqual([expect.stringMatching(/^tasks-status-notifications was skipped by the suite and is not an expected skip \(Skipped: SEP-2663/)]);
    const ran = [scenario('tasks-status-notifications', [ok('t')])];
    expect(verdict(ran, { expected: 1, expectedSkips: { 'tasks-status-notifications': 'known' } }).problems).toEqual([
      "tasks-status-notifications is listed as an expected skip but ran (passed): update the runner's list",
    ]);
    expect(verdict([scenario('a', [{ id: 'a', status: 'FAILURE' }])], { expected: 0 }).problems).toEqual(['1 check(s) failed']);
  });

  it('prints every kind with its reason and warnings', () => {
    const lines = formatScenarios(
      [scenario('ping', [ok('ping')]), scenario('server-sse-polling', SSE_POLLING_0_1_16), scenario('tasks-status-notifications', TASKS_STATUS_SKIPPED), scenario('other', TASKS_STATUS_SKIPPED)],
      { expectedSkips: { 'tasks-status-notifications': 'the harness watches the old channel' }, noChecks: { 'server-sse-polling': 'runs at 2025-03-26' } },
    );
    expect(lines).toEqual([
      '✓ passed    ping (1 checks)',
      '○ no checks server-sse-polling (ran nothing the suite scores)',
      '      known: runs at 2025-03-26',
      `      warning: server-sse-priming-event: ${SSE_POLLING_0_1_16[2]?.errorMessage}`,
      `      warning: server-sse-retry-field: ${SSE_POLLING_0_1_16[3]?.errorMessage}`,
      '- skipped   tasks-status-notifications (expected)',
      `      skipped: tasks-status-notifications: ${TASKS_STATUS_SKIPPED[0]?.errorMessage}`,
      '      expected because: the harness watches the old channel',
      '- skipped   other (NOT expected)',
      `      skipped: tasks-status-notifications: ${TASKS_STATUS_SKIPPED[0]?.errorMessage}`,
    ]);
  });

  describe('reading a run: the summary names the scenarios, the output directory holds their checks', () => {
    let dir = '';
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('reads each scenario from its checks.json, keeps the "not scored" tag, and reports one the suite could not run', () => {
      dir = mkdtempSync(join(tmpdir(), 'fa-mcp-conformance-test-'));
      const write = (folder: string, checks: Check[]) => {
        mkdirSync(join(dir, folder));
        writeFileSync(join(dir, folder, 'checks.json'), JSON.stringify(checks));
      };
      write('server-ping-2026-12-07T01-44-53-466Z', [ok('ping')]);
      write('server-server-sse-polling-2026-12-07T01-44-55-663Z', SSE_POLLING_0_1_16);
      write('server-tasks-status-notifications-2026-12-07T01-45-17-762Z', TASKS_STATUS_SKIPPED);
      const output = [
        'Running requirements 2026-07-28 (4 scenarios)',
        '=== SUMMARY ===',
        '✓ ping: 1 passed, 0 failed',
        '✓ server-sse-polling: 0 passed, 0 failed',
        '✓ tasks-status-notifications: 0 passed, 0 failed',
        '✗ broken: 0 passed, 1 failed',
        '',
        'Total: 1 passed, 1 failed',
        '',
        'Not scored for 2026-07-28: 1 scenario(s) run, 0 failing. These do not affect conformance.',
        '  ✓ tasks-status-notifications (extension)',
      ].join('\n');
      const scenarios = readScenarios(output, dir);
      expect(scenarios?.map((s) => [s.name, s.kind, s.notScored])).toEqual([
        ['ping', 'passed', undefined],
        ['server-sse-polling', 'no-checks', undefined],
        ['tasks-status-notifications', 'skipped', 'extension'],
        ['broken', 'failed', undefined],
      ]);
      expect(scenarios?.[3]?.failures[0]?.reason).toMatch(/could not run it/);
      expect(readScenarios('no summary here', dir)).toBeUndefined();
    });
  });
});
