/**
 * Which tools a fast path serves, decided once per tool: the fast paths look
 * tools up as the SDK path registers them with each server (server-factory.ts),
 * and ask a rule of their own about each.
 */
import type { Core } from '../core/core.js';
import type { ProtocolEra } from '../core/request-context.js';
import type { ITool } from '../core/types.js';

/** Whether a fast path serves a call of `name` (false: the SDK path does); a promise only until the tools are known. */
export type TakesTool = (name: string) => boolean | Promise<boolean>;

/**
 * `rule` says whether a tool is served (unknown names always are: the pipeline
 * answers them); `dynamic` is the verdict when tools are listed per request.
 */
export function toolVerdicts(core: Core, era: ProtocolEra, rule: (tool: ITool) => boolean, dynamic: boolean): TakesTool {
  const { registry } = core;
  let registered: Map<string, ITool> | undefined;
  const registeredTools = async () =>
    (registered ??= new Map((await registry.listTools({ requestId: 'init', era, transport: 'http', clientCapabilities: {} })).map((t) => [t.name, t])));
  const verdicts = new WeakMap<ITool, boolean>();
  const takesTool = (tool: ITool | undefined): boolean => {
    if (!tool) return true;
    let verdict = verdicts.get(tool);
    if (verdict === undefined) {
      verdict = rule(tool);
      verdicts.set(tool, verdict);
    }
    return verdict;
  };
  return (name) => {
    if (registry.hasDynamicTools) return dynamic;
    if (registered) return takesTool(registered.get(name));
    return registeredTools().then((tools) => takesTool(tools.get(name)));
  };
}

/** Tools that may run as tasks stay on the SDK path while tasks are offered (its task dispatch decides). */
export const isTaskCapable = (tool: ITool): boolean => tool.execution?.taskSupport === 'optional' || tool.execution?.taskSupport === 'required';
