/**
 * An official SDK client in front of several instances, as behind a load balancer without
 * stickiness: each request goes to the next instance in turn (or to those of `postTo`), the
 * GET stream to `getTo` when given; `served` counts what each instance got.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerHandle } from '../../src/index.js';
import { serverUrl } from '../integration/helpers.js';

export function roundRobin(handles: McpServerHandle[], getTo?: number, postTo: number[] = handles.map((_, i) => i)) {
  const urls = handles.map(serverUrl);
  let next = 0;
  const served = handles.map(() => 0);
  const fetchRR = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const i = method === 'GET' && getTo !== undefined ? getTo : (postTo[next++ % postTo.length] as number);
    served[i] = (served[i] as number) + 1;
    const target = new URL(input instanceof Request ? input.url : String(input));
    target.host = (urls[i] as URL).host;
    return fetch(target, init);
  };
  return { fetch: fetchRR, served, url: urls[0] as URL };
}

export async function clusterClient(handles: McpServerHandle[], opts: { getTo?: number; postTo?: number[]; setup?: (c: Client) => void } = {}) {
  const rr = roundRobin(handles, opts.getTo, opts.postTo);
  const client = new Client({ name: 'cluster-client', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  opts.setup?.(client);
  const transport = new StreamableHTTPClientTransport(rr.url, { fetch: rr.fetch });
  await client.connect(transport);
  return { client, transport, served: rr.served };
}
