/** Canonical JSON of the contract snapshots: the one implementation lives in core (the audit trail hashes it too). */
export { canonicalJson, jsonEqual, sortKeys } from '../core/canonical-json.js';
