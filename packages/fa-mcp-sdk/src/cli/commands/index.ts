/** The subcommands of `fa-mcp`; a new command is a file in this folder and one line here. */
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { registerAgentTestCommand } from './agent-test.js';
import { registerAuditCommand } from './audit.js';
import { registerConfigCommand } from './config.js';
import { registerContractCommand } from './contract.js';
import { registerContractDocsCommand } from './contract-docs.js';
import { registerTokenCommand } from './token.js';
import { registerToolsMeasureCommand } from './tools-measure.js';
import { registerWebhooksCommand } from './webhooks.js';

export type RegisterCommand = (program: Command, io: () => CliIo) => unknown;

export const COMMANDS: RegisterCommand[] = [registerTokenCommand, registerContractCommand, registerContractDocsCommand, registerToolsMeasureCommand, registerConfigCommand, registerAgentTestCommand, registerWebhooksCommand, registerAuditCommand];
