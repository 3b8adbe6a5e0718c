/**
 * get_time keeps one Intl.DateTimeFormat per time zone, at most a fixed number, instead of one per
 * call (each holds native ICU memory V8 does not count: a formatter per call grew the process by
 * ~30 KB a call; `node scripts/bench/rss-per-tool.mjs --tool get_time` measures it). An unknown time
 * zone is still the tool's clear error, and is never cached.
 */
import { ToolExecutionError } from 'fa-mcp-sdk';
import { describe, expect, it } from 'vitest';
import { createFormatterCache, describeTime } from '../src/tools/get-time.js';

describe("get_time's formatter cache", () => {
  it('reuses the formatter of a time zone instead of building one per call', () => {
    const cache = createFormatterCache(4);
    const first = cache.get('Europe/Berlin');
    expect(cache.get('Europe/Berlin')).toBe(first);
    const now = new Date('2026-03-01T12:00:00Z');
    expect(describeTime(now, 'Europe/Berlin', cache).local).toBe(first.format(now));
    expect(cache.zones()).toEqual(['Europe/Berlin']);
  });

  it('holds at most its bound, dropping the least recently used time zone', () => {
    const cache = createFormatterCache(3);
    const utc = cache.get('UTC');
    const berlin = cache.get('Europe/Berlin');
    cache.get('Asia/Tokyo');
    expect(cache.get('UTC')).toBe(utc); // used again: now the most recent
    cache.get('America/New_York');
    expect(cache.zones()).toEqual(['Asia/Tokyo', 'UTC', 'America/New_York']);
    for (const zone of ['Europe/Paris', 'Europe/Rome', 'Europe/Madrid', 'Asia/Seoul']) cache.get(zone);
    expect(cache.zones()).toHaveLength(3);
    expect(cache.get('Europe/Berlin')).not.toBe(berlin); // dropped earlier: built again
  });

  it('answers an unknown time zone with the tool error, and caches nothing for it', () => {
    const cache = createFormatterCache(3);
    const now = new Date();
    for (let i = 0; i < 2; i++) {
      let caught: unknown;
      try {
        describeTime(now, 'Mars/Olympus', cache);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ToolExecutionError);
      expect((caught as Error).message).toBe('Unknown time zone "Mars/Olympus". Use an IANA name such as "Europe/Berlin" or "UTC".');
    }
    expect(cache.zones()).toEqual([]);
    expect(describeTime(now, 'UTC', cache)).toMatchObject({ timeZone: 'UTC', unixMs: now.getTime(), iso: now.toISOString() });
  });

  it("the tool's own cache answers as a fresh formatter would, for more time zones than it keeps", () => {
    const now = new Date();
    for (const zone of Intl.supportedValuesOf('timeZone').slice(0, 100)) {
      const fresh = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'long' }).format(now);
      expect(describeTime(now, zone)).toEqual({ iso: now.toISOString(), unixMs: now.getTime(), timeZone: zone, local: fresh });
    }
  });
});
