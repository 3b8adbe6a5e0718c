/** Builds the demo's `dist/` (what `node dist/start.js` runs) when a source file is newer than it. */
import { ensureDemoDist } from '../../../scripts/cluster/cluster.mjs';

export function buildDemoDist(): string {
  return ensureDemoDist();
}
