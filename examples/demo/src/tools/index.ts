import type { ITool } from 'fa-mcp-sdk';
import { askUserTool } from './ask-user.js';
import { convertCurrencyTool } from './convert-currency.js';
import { getTimeTool } from './get-time.js';
import { slowReportTool } from './slow-report.js';
import { whoamiTool } from './whoami.js';
import { postNoteTool } from './post-note.js';

/** Every tool of the demo, each with its own handler. */
export const demoTools: ITool[] = [getTimeTool, convertCurrencyTool, slowReportTool, askUserTool, whoamiTool, postNoteTool];
