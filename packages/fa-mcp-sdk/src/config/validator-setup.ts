/**
 * The ajv instance that validates the configuration, one setup for the two places that compile
 * the schema: the loader at run time (config/loader.ts) and the build, which precompiles the
 * framework schema into dist/config-validator.cjs (scripts/build-config-validator.mjs).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';

export function createConfigAjv(
  AjvClass: typeof Ajv2020,
  addFormats: typeof addFormatsModule.default,
  extra: ConstructorParameters<typeof Ajv2020>[0] = {},
): Ajv2020 {
  const ajv = new AjvClass({ allErrors: true, useDefaults: true, strict: false, verbose: true, ...extra });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-env', schemaType: 'array', metaSchema: { type: 'array', items: { type: 'string' } } });
  ajv.addKeyword({ keyword: 'x-secret', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
  return ajv;
}
