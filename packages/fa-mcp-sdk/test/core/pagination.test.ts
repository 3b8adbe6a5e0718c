import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { Paginator } from '../../src/core/pagination.js';
import { caughtSync } from './helpers.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => `item_${i}`);
const id = (s: string) => s;

/** Walks every page of a list and returns the pages' items. */
function walk(p: Paginator, list: string, all: string[]): string[][] {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1_000; guard++) {
    const page = p.paginate(list, all, id, cursor);
    pages.push(page.items);
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
}

function expectInvalidCursor(fn: () => unknown) {
  const err = caughtSync(fn);
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).code).toBe(-32602);
  expect((err as ValidationError).data).toMatchObject({ field: 'cursor' });
}

describe('Paginator', () => {
  it('serves pages of pageSize in order; the last page has no nextCursor', () => {
    const p = new Paginator('srv@1.0.0', 3);
    const pages = walk(p, 'tools', items(8));
    expect(pages).toEqual([
      ['item_0', 'item_1', 'item_2'],
      ['item_3', 'item_4', 'item_5'],
      ['item_6', 'item_7'],
    ]);
  });

  it('an exact multiple of pageSize ends without an empty page', () => {
    const p = new Paginator('srv@1.0.0', 2);
    expect(walk(p, 'tools', items(4))).toEqual([
      ['item_0', 'item_1'],
      ['item_2', 'item_3'],
    ]);
  });

  it('a short list is one page without a cursor; an empty list is one empty page', () => {
    const p = new Paginator('srv@1.0.0', 50);
    expect(p.paginate('tools', items(3), id)).toEqual({ items: items(3) });
    expect(p.paginate('tools', [], id)).toEqual({ items: [] });
  });

  it('the cursor is opaque: it shows neither item names nor plain JSON', () => {
    const p = new Paginator('srv@1.0.0', 1);
    const cursor = p.paginate('tools', items(3), id).nextCursor ?? '';
    expect(cursor).not.toContain('item_0');
    expect(cursor).not.toContain('{');
  });

  it('a cursor from a Paginator with another identity is refused', () => {
    const mine = new Paginator('srv@1.0.0', 2);
    const theirs = new Paginator('other-server@1.0.0', 2);
    const cursor = theirs.paginate('tools', items(5), id).nextCursor;
    expect(cursor).toBeDefined();
    expectInvalidCursor(() => mine.paginate('tools', items(5), id, cursor));
    // a new version of the same server is another identity too
    expectInvalidCursor(() => new Paginator('srv@1.0.1', 2).paginate('tools', items(5), id, mine.paginate('tools', items(5), id).nextCursor));
  });

  it('a tampered cursor is refused', () => {
    const p = new Paginator('srv@1.0.0', 2);
    const cursor = p.paginate('tools', items(6), id).nextCursor ?? '';
    const [body = '', mac = ''] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ l: 'tools', k: 'item_3', i: 3 })).toString('base64url');
    expectInvalidCursor(() => p.paginate('tools', items(6), id, `${forgedBody}.${mac}`));
    const flipped = mac.startsWith('A') ? `B${mac.slice(1)}` : `A${mac.slice(1)}`;
    expectInvalidCursor(() => p.paginate('tools', items(6), id, `${body}.${flipped}`));
    expectInvalidCursor(() => p.paginate('tools', items(6), id, `${body}.${mac.slice(0, -1)}`));
    expectInvalidCursor(() => p.paginate('tools', items(6), id, body));
  });

  it("a cursor of the 'tools' list is refused on 'prompts'", () => {
    const p = new Paginator('srv@1.0.0', 2);
    const cursor = p.paginate('tools', items(6), id).nextCursor;
    expectInvalidCursor(() => p.paginate('prompts', items(6), id, cursor));
  });

  it.each([
    ['the empty string', ''],
    ['garbage', 'not-a-cursor'],
    ['a dot alone', '.'],
    ['two dots', '..'],
    ['base64 of JSON without a mac', Buffer.from('{"l":"tools","k":"item_1","i":1}').toString('base64url')],
    ['a very long string', 'a'.repeat(5_000)],
  ])('garbage is refused: %s', (_label, cursor) => {
    const p = new Paginator('srv@1.0.0', 2);
    expectInvalidCursor(() => p.paginate('tools', items(6), id, cursor));
  });

  it('a cursor survives a restart and crosses instances with the same secret; another secret or none refuses it', () => {
    const before = new Paginator('srv@1.0.0', 2, 'shared-cursor-secret');
    const cursor = before.paginate('tools', items(6), id).nextCursor;
    const after = new Paginator('srv@1.0.0', 2, 'shared-cursor-secret');
    expect(after.paginate('tools', items(6), id, cursor)).toMatchObject({ items: ['item_2', 'item_3'] });
    expectInvalidCursor(() => new Paginator('srv@1.0.0', 2, 'another-secret').paginate('tools', items(6), id, cursor));
    expectInvalidCursor(() => new Paginator('srv@1.0.0', 2).paginate('tools', items(6), id, cursor));
  });

  it('without a secret the key is random: two Paginators of the same identity refuse each other', () => {
    const one = new Paginator('srv@1.0.0', 2);
    const cursor = one.paginate('tools', items(6), id).nextCursor;
    expect(one.paginate('tools', items(6), id, cursor).items).toEqual(['item_2', 'item_3']);
    expectInvalidCursor(() => new Paginator('srv@1.0.0', 2).paginate('tools', items(6), id, cursor));
  });

  it('a cursor forged with the key derived from the public name@version is refused', () => {
    const p = new Paginator('srv@1.0.0', 2);
    const publicKey = createHmac('sha256', 'fa-mcp-sdk/pagination').update('srv@1.0.0').digest();
    const body = Buffer.from(JSON.stringify({ l: 'tools', k: 'item_3', i: 3 })).toString('base64url');
    const forged = `${body}.${createHmac('sha256', publicKey).update(body).digest('base64url').slice(0, 22)}`;
    expectInvalidCursor(() => p.paginate('tools', items(6), id, forged));
  });

  it('an item of an earlier page removed between pages does not skip or repeat others', () => {
    const p = new Paginator('srv@1.0.0', 2);
    const all = items(6);
    const first = p.paginate('tools', all, id);
    const shrunk = all.filter((i) => i !== 'item_0');
    expect(p.paginate('tools', shrunk, id, first.nextCursor).items).toEqual(['item_2', 'item_3']);
  });

  it('the last item of the previous page (the one the cursor names) removed does not skip the next one', () => {
    const p = new Paginator('srv@1.0.0', 2);
    const all = items(6);
    const first = p.paginate('tools', all, id);
    expect(first.items).toEqual(['item_0', 'item_1']);
    const shrunk = all.filter((i) => i !== 'item_1');
    expect(p.paginate('tools', shrunk, id, first.nextCursor).items).toEqual(['item_2', 'item_3']);
  });

  it('an item added after the cursor is seen, one before it is not repeated', () => {
    const p = new Paginator('srv@1.0.0', 2);
    const all = items(4);
    const first = p.paginate('tools', all, id);
    const grown = ['new_first', ...all, 'new_last'];
    const rest = walk(p, 'tools', grown).length; // sanity: a fresh walk still ends
    expect(rest).toBe(3);
    const next = p.paginate('tools', grown, id, first.nextCursor);
    expect(next.items).toEqual(['item_2', 'item_3']);
    expect(p.paginate('tools', grown, id, next.nextCursor).items).toEqual(['new_last']);
  });

  it('works with objects and a key function', () => {
    const p = new Paginator('srv@1.0.0', 1);
    const tools = [{ name: 'a' }, { name: 'b' }];
    const first = p.paginate('tools', tools, (t) => t.name);
    expect(p.paginate('tools', tools, (t) => t.name, first.nextCursor)).toEqual({ items: [{ name: 'b' }] });
  });
});
