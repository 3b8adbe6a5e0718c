/** `--config file.json|yaml`: the answers of an unattended run, keyed like the flags (camelCase). */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { AnswerError, parsePartialAnswers, type Answers } from './answers.js';

export function readAnswersFile(file: string): Partial<Answers> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AnswerError([`--config ${file}: cannot be read (${(err as Error).message})`]);
  }
  let data: unknown;
  try {
    data = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new AnswerError([`--config ${file}: not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'} (${(err as Error).message})`]);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new AnswerError([`--config ${file}: must hold an object of answers, e.g. { "name": "my-server", "port": 3000 }`]);
  }
  return parsePartialAnswers(data as Record<string, unknown>, `--config ${file}`);
}
