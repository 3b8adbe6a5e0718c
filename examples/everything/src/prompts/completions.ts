/**
 * completable-prompt: argument completions, where the department typed so far drives the names
 * offered for the name argument.
 */
import type { IPromptData } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

export const TEAMS: Record<string, string[]> = {
  Engineering: ['Alice', 'Bob', 'Charlie'],
  Sales: ['David', 'Eve', 'Frank'],
  Marketing: ['Grace', 'Henry', 'Iris'],
  Support: ['John', 'Kim', 'Lee'],
};

const startsWith = (prefix: string) => (v: string) => v.toLowerCase().startsWith(prefix.toLowerCase());

export const completablePrompt: IPromptData = {
  name: 'completable-prompt',
  title: 'Team management',
  description: 'Promotes a team member; department completions drive the name suggestions.',
  icons: ICONS.prompt,
  arguments: [
    { name: 'department', description: 'The department', required: true, complete: (value) => Object.keys(TEAMS).filter(startsWith(value)) },
    {
      name: 'name',
      description: 'The person to promote',
      required: true,
      complete: (value, { arguments: chosen }) => {
        const department = chosen?.department;
        const names = department && TEAMS[department] ? TEAMS[department] : Object.values(TEAMS).flat();
        return names.filter(startsWith(value));
      },
    },
  ],
  content: ({ department, name }) => `Please promote ${name} to the head of the ${department} team.`,
};
