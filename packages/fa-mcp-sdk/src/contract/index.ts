/** Contract snapshots of a server's surface, their differences, and the version bump they need. */
export { canonicalJson, jsonEqual, sortKeys } from './canonical-json.js';
export { bumpRank, maxBump, verdictOf, type Bump, type ChangeLevel, type ContractChange } from './change.js';
export { collectSurface, sortEndpoints, type SurfaceClient } from './collect-surface.js';
export { diffSnapshots, type DiffOptions, type SnapshotDiff } from './diff-snapshots.js';
export { listHttpEndpoints, type RouterLike } from './http-endpoints.js';
export { renderChange, renderDiff } from './render-diff.js';
export { compareSchemas, type SchemaDirection } from './schema-changes.js';
export { bumpBetween, checkBump, parseSemver, type BumpCheck, type SemVer } from './semver-check.js';
export { parseSnapshot } from './parse-snapshot.js';
export { SNAPSHOT_FORMAT, type ContractSnapshot, type HttpEndpoint } from './snapshot-types.js';
export { checkSurface, extractSurface, renderSurface, spliceSurface, surfaceDifferences, SURFACE_BEGIN, SURFACE_END, type SurfaceCheck } from './surface-page.js';
