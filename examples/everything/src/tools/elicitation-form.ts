/**
 * The form trigger-elicitation-request asks for: every field type form-mode elicitation supports
 * (strings with and without a format, integers, numbers, booleans, single- and multi-select
 * enums, titled and untitled, with defaults), and how its answer is summarised.
 */
import type { JsonObject } from 'fa-mcp-sdk';

export const EVERY_FIELD_FORM: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'Your full name', minLength: 1, maxLength: 100 },
    email: { type: 'string', title: 'Email address', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    birthdate: { type: 'string', title: 'Birthdate', format: 'date' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    score: { type: 'number', title: 'Favourite number', minimum: 0, maximum: 100, default: 42.5 },
    subscribe: { type: 'boolean', title: 'Subscribe to the newsletter', default: false },
    color: { type: 'string', title: 'Favourite colour', enum: ['red', 'green', 'blue'], default: 'green' },
    size: {
      type: 'string',
      title: 'T-shirt size',
      oneOf: [
        { const: 'S', title: 'Small' },
        { const: 'M', title: 'Medium' },
        { const: 'L', title: 'Large' },
      ],
    },
    pets: { type: 'array', title: 'Pets', items: { type: 'string', enum: ['cat', 'dog', 'fish'] }, minItems: 0, maxItems: 3 },
    languages: {
      type: 'array',
      title: 'Languages',
      items: {
        anyOf: [
          { const: 'en', title: 'English' },
          { const: 'fr', title: 'French' },
        ],
      },
    },
  },
  required: ['name', 'email'],
};

/** The message of the form. */
export const EVERY_FIELD_MESSAGE = 'Please provide your information (every field type form elicitation supports).';

/** What a reply says, in one line. */
export function summariseReply(reply: JsonObject): string {
  if (reply.action !== 'accept') return `The user ${reply.action === 'decline' ? 'declined' : 'cancelled'} the form.`;
  const content = (reply.content ?? {}) as Record<string, unknown>;
  return `The user answered: ${Object.entries(content)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ')}.`;
}
