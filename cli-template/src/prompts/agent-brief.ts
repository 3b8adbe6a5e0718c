/** The standard `agent_brief` prompt (also the resource `<name>://agent/brief`): what this server is for, in a few lines. */
import { DESCRIPTION, PRODUCT_NAME } from '../server-info.js';

export const agentBrief = [
  `# ${PRODUCT_NAME}`,
  '',
  DESCRIPTION,
  '',
  'Use it to greet people (say_hello) and to convert temperatures (convert_temperature).',
].join('\n');
