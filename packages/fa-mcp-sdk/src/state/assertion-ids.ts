/**
 * The ids of assertions that were used once (the `jti` of an ID-JAG): an
 * assertion whose id is already here is a replay. In memory (one process) or
 * in PostgreSQL (every instance on that database sees one use); an id is kept
 * until the assertion expires, when a replay would be refused as expired anyway.
 */
export interface UsedAssertionIds {
  /**
   * Records `key` as used until `expiresAtMs`. True the first time; false when it was already
   * used and has not expired. Throws when the store cannot tell (the caller refuses then).
   */
  firstUse(key: string, expiresAtMs: number): Promise<boolean>;
}
