/** The standard `agent_prompt` prompt (also the resource `<name>://agent/prompt`): the system prompt for an agent using this server. */
import { PRODUCT_NAME } from '../server-info.js';

export const agentPrompt = [
  `You can call the tools of the ${PRODUCT_NAME} MCP server.`,
  '',
  '- say_hello: greet a person by name.',
  '- convert_temperature: convert between celsius, fahrenheit and kelvin; read temperature://units first if unsure.',
  '',
  'When a tool result has isError: true, read its text, correct the arguments and try again.',
].join('\n');
