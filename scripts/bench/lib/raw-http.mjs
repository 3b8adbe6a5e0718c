// The load generator's HTTP/1.1 client: one keep-alive TCP connection sending one POST at a time,
// its request head written once per connection, its answers read with the least work that still
// checks them (status, Content-Length or chunked body, Connection: close). node:http's client costs
// the load generator ~40-50 µs per call; on a 2-core machine that is about what the floor server
// itself costs, so the generator, not the server, set the floor's figure, and it added its time to
// every server's round trip (see page 07, "What limits a cell"). The same bytes go to every server.
import { connect } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');

export class RawHttpConnection {
  /** @param {string} url  @param {Record<string, string>} headers sent on every request (content-length added per request) */
  constructor(url, headers) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
    const lines = [`POST ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, 'connection: keep-alive'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    this.head = `${lines.join('\r\n')}\r\ncontent-length: `;
    this.socket = undefined;
    this.buf = undefined;
    this.pending = undefined;
  }

  /** Sends one POST; resolves with the status and the body text. */
  post(body) {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      const socket = this.socket ?? this.open();
      socket.write(`${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  open() {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    this.buf = undefined;
    socket.on('data', (chunk) => {
      this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
      this.tryAnswer();
    });
    const gone = (err) => {
      if (this.socket === socket) this.socket = undefined;
      const p = this.pending;
      this.pending = undefined;
      p?.reject(err ?? new Error('connection closed before the answer'));
    };
    socket.on('error', gone);
    socket.on('close', () => gone());
    return socket;
  }

  /** Resolves the pending request once its whole answer is in the buffer. */
  tryAnswer() {
    const buf = this.buf;
    const end = buf.indexOf(HEAD_END);
    if (end < 0 || !this.pending) return;
    const head = buf.toString('latin1', 0, end).toLowerCase();
    const status = Number(head.slice(9, 12));
    const start = end + 4;
    let text;
    let used;
    const length = /\r\ncontent-length: *(\d+)/.exec(head);
    if (length) {
      used = start + Number(length[1]);
      if (buf.length < used) return;
      text = buf.toString('utf8', start, used);
    } else if (/\r\ntransfer-encoding: *chunked/.test(head)) {
      const parts = [];
      let at = start;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
        if (buf.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          used = lineEnd + 4; // no trailers from these servers
          break;
        }
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      text = Buffer.concat(parts).toString('utf8');
    } else {
      used = start; // no body (204, 202 without length)
      text = '';
    }
    this.buf = used < buf.length ? buf.subarray(used) : undefined;
    const p = this.pending;
    this.pending = undefined;
    if (/\r\nconnection: *close/.test(head)) {
      const socket = this.socket;
      this.socket = undefined;
      socket?.removeAllListeners('close');
      socket?.destroy();
    }
    p.resolve({ status, text });
  }

  destroy() {
    this.socket?.destroy();
    this.socket = undefined;
  }
}
