/**
 * What the test clients answer when the server asks (elicitation, sampling, roots), the same on
 * every client: a form is filled field by field from FORM_VALUES (a test may change them), a URL
 * elicitation is accepted, sampling answers ANSWER_TEXT, roots are ROOTS. Every request the
 * server made is kept in `asked`.
 */
export type Json = Record<string, unknown>;

export const ANSWER_TEXT = 'A sampled answer from the test model';
export const ROOTS = [
  { uri: 'file:///work/project', name: 'project' },
  { uri: 'file:///work/notes', name: 'notes' },
];

export const FORM_VALUES: Json = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  homepage: 'https://example.com/ada',
  birthdate: '1815-12-10',
  age: 36,
  score: 42.5,
  subscribe: true,
  color: 'blue',
  size: 'M',
  pets: ['cat', 'dog'],
  languages: ['en'],
  interpretation: 'the Python programming language',
};

export interface Asked {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Json;
}

export class Answers {
  readonly asked: Asked[] = [];
  /** Values the next forms are filled with, field by field (a queue per field: the first value is used once when there are several). */
  private readonly queued = new Map<string, unknown[]>();

  /** The next form answer of `field` is `values[0]`, then `values[1]`, …, then FORM_VALUES again. */
  queue(field: string, ...values: unknown[]): void {
    this.queued.set(field, [...(this.queued.get(field) ?? []), ...values]);
  }

  elicit(params: Json): Json {
    this.asked.push({ method: 'elicitation/create', params });
    if (params.mode === 'url') return { action: 'accept' };
    const schema = (params.requestedSchema ?? {}) as { properties?: Record<string, unknown> };
    const content: Json = {};
    for (const field of Object.keys(schema.properties ?? {})) {
      const queued = this.queued.get(field);
      content[field] = queued?.length ? queued.shift() : FORM_VALUES[field];
    }
    return { action: 'accept', content };
  }

  sample(params: Json): Json {
    this.asked.push({ method: 'sampling/createMessage', params });
    return { role: 'assistant', content: { type: 'text', text: ANSWER_TEXT }, model: 'test-model', stopReason: 'endTurn' };
  }

  roots(): Json {
    this.asked.push({ method: 'roots/list', params: {} });
    return { roots: ROOTS };
  }
}
