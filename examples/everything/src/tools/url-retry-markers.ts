/**
 * trigger-url-elicitation's error path (2025-era): the first call throws -32042 with a
 * prerequisite URL elicitation and leaves a marker for its (url, elicitationId) on the
 * connection; the retry of the same call finds the marker, clears it (one-shot) and proceeds
 * through the request path, so a client that satisfied the prerequisite does not loop on the
 * same error. Markers go with their session.
 */
import type { IMcpSession } from 'fa-mcp-sdk';

export class UrlRetryMarkers {
  private readonly bySession = new Map<string, Set<string>>();

  /** Leaves the marker of an error-path call. */
  mark(session: IMcpSession, url: string, elicitationId: string): void {
    let markers = this.bySession.get(session.id);
    if (!markers) {
      markers = new Set();
      this.bySession.set(session.id, markers);
      session.onClose(() => this.bySession.delete(session.id));
    }
    markers.add(keyOf(url, elicitationId));
  }

  /** true when the call is the retry of an earlier error-path call; the marker is cleared. */
  takeRetry(session: IMcpSession, url: string, elicitationId: string): boolean {
    return this.bySession.get(session.id)?.delete(keyOf(url, elicitationId)) ?? false;
  }
}

const keyOf = (url: string, elicitationId: string) => JSON.stringify([url, elicitationId]);
