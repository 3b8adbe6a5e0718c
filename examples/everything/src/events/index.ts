/** The example's MCP Events: the event types, the tool that raises them, and the clock. */
import type { IEventTypeData } from 'fa-mcp-sdk';
import type { EverythingTool } from '../tools/define.js';
import { clockTick } from './clock-tick.js';
import { alert, customEvent, triggerEvent } from './custom-event.js';

export { startClock } from './clock-tick.js';

export const everythingEvents: IEventTypeData[] = [clockTick, customEvent, alert];

export const eventTools: EverythingTool[] = [triggerEvent];
