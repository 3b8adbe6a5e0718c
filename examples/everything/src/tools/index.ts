/**
 * Every tool of the example, and `McpServerData.tools` as a function of the request: a tool is
 * listed (and callable) on the revisions the seed gives it; on a 2025-era connection a tool that
 * needs a client capability is there only for a client that declared it at initialize, while
 * on 2026-07-28 it is always listed (the capabilities come with each request, and a call from a
 * client without them is refused with -32021).
 */
import type { ITool, RequestContext } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { declares } from './client-capabilities.js';
import type { EverythingTool } from './define.js';
import { echo } from './echo.js';
import { getAnnotatedMessage } from './get-annotated-message.js';
import { getEnv } from './get-env.js';
import { getHeaderParams } from './get-header-params.js';
import { getResourceLinks } from './get-resource-links.js';
import { getResourceReference } from './get-resource-reference.js';
import { getRootsList } from './get-roots-list.js';
import { getStructuredContent } from './get-structured-content.js';
import { getSum } from './get-sum.js';
import { getTinyImage } from './get-tiny-image.js';
import { gzipFileAsResource } from './gzip-file-as-resource.js';
import { simulateResearchQuery } from './simulate-research-query.js';
import { toggleSimulatedLogging } from './toggle-simulated-logging.js';
import { toggleSubscriberUpdates } from './toggle-subscriber-updates.js';
import { triggerElicitationRequestAsync } from './trigger-elicitation-request-async.js';
import { triggerElicitationRequest } from './trigger-elicitation-request.js';
import { triggerListChanged } from './trigger-list-changed.js';
import { triggerLogMessages } from './trigger-log-messages.js';
import { triggerLongRunningOperation } from './trigger-long-running-operation.js';
import { triggerMultiStepElicitation } from './trigger-multi-step-elicitation.js';
import { triggerResourceUpdate } from './trigger-resource-update.js';
import { triggerSamplingRequestAsync } from './trigger-sampling-request-async.js';
import { triggerSamplingRequest } from './trigger-sampling-request.js';
import { triggerUrlElicitation } from './trigger-url-elicitation.js';

export function everythingTools(rt: EverythingRuntime): EverythingTool[] {
  return [
    echo,
    getAnnotatedMessage,
    getEnv(rt),
    getHeaderParams,
    getResourceLinks,
    getResourceReference,
    getRootsList,
    gzipFileAsResource(rt),
    getStructuredContent,
    getSum,
    getTinyImage,
    simulateResearchQuery,
    toggleSimulatedLogging(rt),
    toggleSubscriberUpdates(rt),
    triggerElicitationRequest,
    triggerElicitationRequestAsync,
    triggerListChanged(rt),
    triggerLogMessages,
    triggerLongRunningOperation,
    triggerMultiStepElicitation,
    triggerResourceUpdate(rt),
    triggerSamplingRequest,
    triggerSamplingRequestAsync,
    triggerUrlElicitation(rt),
  ];
}

/** Whether `entry` is served to the request `ctx`. */
export function servedTo(entry: EverythingTool, ctx: Pick<RequestContext, 'era' | 'clientCapabilities'>): boolean {
  if (entry.eras !== 'both' && entry.eras !== ctx.era) return false;
  if (ctx.era === '2025') return declares(ctx.clientCapabilities, entry.tool.execution?.requiredClientCapabilities);
  return true;
}

/** `McpServerData.tools`: the tools of the request's era and, on 2025-era connections, of the client's capabilities. */
export function toolsFor(all: EverythingTool[]): (ctx: RequestContext) => ITool[] {
  return (ctx) => all.filter((entry) => servedTo(entry, ctx)).map((entry) => entry.tool);
}
