/**
 * Writes a web-standard Response to a Node response, flushing the headers at
 * once for event streams (so a client sees the 200 before the first event) and
 * stopping the body when the client goes away.
 */
import type { ServerResponse } from 'node:http';

export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  if (isStream) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => undefined);
  res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } catch {
    // the client disconnected or the stream was cancelled
  } finally {
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}
