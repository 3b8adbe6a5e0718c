/**
 * The public base URL used in OAuth metadata and challenges: the configured
 * `webServer.auth.publicUrl`, or else the address the connection reached (the
 * socket's local address and port). Never the Host header, which the client
 * controls.
 */
import type { Request } from 'express';

export function baseUrlOf(req: Request, publicUrl: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const socket = req.socket;
  let host = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  if (host.includes(':')) host = `[${host}]`;
  const scheme = (socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return `${scheme}://${host}:${socket.localPort ?? 80}`;
}
