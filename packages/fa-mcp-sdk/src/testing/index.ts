/**
 * fa-mcp-sdk/testing: helpers for consumers' tests.
 */
export { getJsonFromResult } from '../core/results.js';
