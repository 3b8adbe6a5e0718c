/** Opaque cursors for task lists: (createdAt, taskId) of the last task of a page. */
import { ValidationError } from '../core/errors.js';

export function encodeTaskCursor(createdAt: number, taskId: string): string {
  return Buffer.from(JSON.stringify([createdAt, taskId])).toString('base64url');
}

export function decodeTaskCursor(cursor: string): { createdAt: number; taskId: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string' && value.length === 2) {
      return { createdAt: value[0], taskId: value[1] };
    }
  } catch {
    // fall through
  }
  throw new ValidationError('Invalid cursor', { field: 'cursor', reason: 'is not a task cursor issued by this server' });
}
