/**
 * Who a session counts against (session-manager.ts `maxPerCaller`): the
 * authenticated subject, or the client address (after trustProxy) without
 * authentication. A session opened behind authentication is bound to the
 * subject that opened it (session-routes.ts): a later request naming that
 * session id must come from the same subject, or it is answered like an
 * unknown session (404), so a leaked or guessed id is of no use to another
 * caller.
 */
export function sessionCaller(subject: string | undefined, remoteAddress: string): string {
  return subject !== undefined ? `sub:${subject}` : `ip:${remoteAddress}`;
}
