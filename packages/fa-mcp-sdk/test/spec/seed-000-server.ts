/**
 * The production server of specification seed 000, rebuilt through the public
 * API: tools, the commit_message prompt whose two closed arguments complete,
 * the debrief prompt, the skills extension under typo3://skill (no directory
 * reads), serverInfo with title, description, website and two icon files that
 * become data: URIs, and instructions assembled from their four parts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatToolResult, type IInstructionsParts, type ITool, type McpServerData } from '../../src/index.js';

export const SEED_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'seed-000');

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const lookup = (name: string, title: string, description: string): ITool => ({
  name,
  title,
  description,
  inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to look up.' } }, required: ['query'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { matches: { type: 'array', items: { type: 'string' } } }, required: ['matches'] },
  annotations: { title, ...readOnly },
  handler: ({ arguments: args }) => formatToolResult({ matches: [String(args.query)] }),
});

export const seedTools: ITool[] = [
  lookup('typo3_project_describe', 'Describe the project', 'The installation: TYPO3 version, own extensions, sites, declared commands.'),
  lookup('typo3_task_guide', 'Task guide', 'The workflow a task belongs to.'),
  lookup('typo3_component_lookup', 'Component lookup', 'Backend markup and CSS classes by target version.'),
  lookup('typo3_commit_message_guide', 'Commit message guide', 'The commit message and its branches.'),
  {
    name: 'typo3_feedback_record',
    title: 'Record feedback',
    description: 'Creates a new markdown feedback under feedback/ and writes nothing else.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    annotations: { title: 'Record feedback', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: () => formatToolResult({ recorded: true }),
  },
];

/** The seed's instructions in their four parts: the opening, the index, the note under it, the close. */
export const seedInstructions: IInstructionsParts = {
  opening:
    'Start every task with typo3_project_describe. It answers the installation\'s TYPO3 version, the extensions that are the project\'s own, the sites it configures, and the commands the repository declares. A check you recommend that the repository does not declare is a wrong answer however sensible it sounds. Then call typo3_task_guide for the workflow the task belongs to. Call it again at the first test, check, commit or shipped file the task did not name. Not every task ends in a patch. It also answers a triage of the backlog, whether a report still reproduces, and what a fix costs. What changed, which branch you are on, and whether a path still exists are yours to read in the checkout.',
  index: [
    { tools: ['typo3_component_lookup'], text: 'backend markup or a CSS class: typo3_component_lookup with the targetVersion' },
    { tools: ['typo3_icon_lookup'], text: 'a backend icon identifier: typo3_icon_lookup' },
    { tools: ['typo3_label_lookup'], text: 'a label, added or reworded: typo3_label_lookup with the XLF resource the code at hand uses; a match elsewhere is not reusable' },
    { tools: ['typo3_changelog_lookup'], text: 'what a version broke, deprecated or added, on a major you have not built on lately: typo3_changelog_lookup' },
    { tools: ['typo3_commit_message_guide'], text: 'the commit message, yours as much as the core\'s, and its branches: typo3_commit_message_guide' },
    { tools: ['typo3_rule_lookup'], text: 'the whole procedure, not one fact out of it: typo3_rule_lookup with a documentId typo3_project_describe lists' },
  ],
  note: [
    'Activate the typo3-* skill in your listing that covers the task: it makes these calls.',
    'targetVersion or the version the server read filters the answers, and a statement that does not hold on every covered line carries its range.',
    'Query this server in English whatever language you speak with the user. Its match is lexical, so a query in another language reaches only the loanwords. Translate the subject before you call, and the answer back.',
  ].join('\n\n'),
  close:
    'typo3_server_scope says what it covers, by which tool, and which installation it reads. Every tool here is read-only except typo3_feedback_record, which creates a new markdown feedback under feedback/ and writes nothing else.',
};

export function seedServerData(): McpServerData {
  return {
    serverInfo: {
      name: 'typo3-dev-companion',
      version: '0.3.0',
      title: 'TYPO3 Dev Companion',
      description:
        'Guides a coding agent through TYPO3 implementation, review and verification with version-bound knowledge and the facts of the project it runs in.',
      websiteUrl: 'https://typo3.github.io/dev-companion/',
      icons: [
        { file: join(SEED_DIR, 'images', 'signet-s.svg'), sizes: ['16x16'] },
        { file: join(SEED_DIR, 'images', 'signet-l.svg'), sizes: ['32x32'] },
      ],
    },
    instructions: seedInstructions,
    tools: seedTools,
    prompts: [
      {
        name: 'commit_message',
        title: 'Draft a TYPO3 commit message',
        description: 'Turn a summary into the checked commit-message draft already provided by typo3_commit_message_guide.',
        arguments: [
          { name: 'summary', description: 'What the change does.', required: true },
          { name: 'keyword', description: 'The commit keyword.', complete: ['BUGFIX', 'FEATURE', 'TASK', 'DOCS', 'SECURITY'] },
          { name: 'workflow', description: 'The workflow the change went through.', complete: ['core', 'extension'] },
          { name: 'issue', description: 'The issue number.' },
        ],
        content: (args) => `Draft a commit message for: ${args.summary}`,
      },
      {
        name: 'debrief',
        title: 'Debrief the session that has just finished',
        description: 'Ask a finished session what this server did for it and what it lacked.',
        content: 'What did this server do for you, and what did it lack? Record it with typo3_feedback_record.',
      },
    ],
    skills: { dir: join(SEED_DIR, 'skills'), baseUri: 'typo3://skill', listInInstructions: false, directoryRead: false },
  };
}
