/** Waits for a condition with a deadline (never a fixed sleep), as the cluster scripts do. */
export { waitUntil } from '../../../../scripts/cluster/cluster.mjs';
