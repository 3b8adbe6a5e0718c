#!/usr/bin/env node
/** The `fa-mcp` bin: parses the process arguments with the program of ./program.ts. */
import { buildProgram } from './program.js';

void buildProgram().parseAsync(process.argv);
