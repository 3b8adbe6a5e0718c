export { ConfigError, type ConfigIssue } from './config-error.js';
export {
  configSchema,
  describeExpected,
  forEachLeaf,
  isPlainObject,
  isSection,
  leafPaths,
  schemaDefaults,
  schemaNodeAt,
  type AppConfig,
  type JsonType,
  type SchemaNode,
} from './schema.js';
export { coerceValue, envToConfig, type CoerceResult, type EnvMappingResult, type EnvSource } from './env-mapping.js';
export { buildSchema, loadConfig, type LoadConfigOptions, type LoadedConfig } from './loader.js';
export { displayValue, isSecretKey, maskConfig, maskedView, maskSecrets, maskSecretsInString, MASK } from './mask.js';
export { renderConfigReference, type RenderReferenceOptions } from './reference-doc.js';
export { renderConfigYaml, type RenderConfigYamlOptions } from './config-yaml.js';
