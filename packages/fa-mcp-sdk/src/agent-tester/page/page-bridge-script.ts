/**
 * The MCP Apps host bridge of the Agent Tester page (plain browser JavaScript,
 * inlined): each view runs in an iframe with `sandbox="allow-scripts"` and a
 * srcdoc whose first element is the view's Content-Security-Policy, and talks
 * JSON-RPC over postMessage. Only messages whose source is one of the page's
 * view frames are read.
 *
 * Supported: `ui/initialize` (answered with the host's info, capabilities and
 * context), `ui/notifications/initialized` (then the page sends
 * `ui/notifications/tool-input` and `ui/notifications/tool-result`),
 * `tools/call` and `resources/read` (sent to the server through the caller's
 * Agent Tester session), `ping`, `ui/notifications/size-changed` (the frame's
 * height, 40 to 800 px) and `notifications/message` (shown in the bridge log).
 * Every other request gets JSON-RPC error -32601.
 */
export const BRIDGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var HOST_INFO = { name: 'fa-mcp-agent-tester', version: '1.0.0' };
  var PROTOCOL = '2026-01-26';
  var frames = [];

  function withCsp(html, csp) {
    var meta = '<meta http-equiv="Content-Security-Policy" content="' + csp.replace(/"/g, '&quot;') + '">';
    return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, function (m) { return m + meta; }) : meta + html;
  }
  function note(entry, line) {
    entry.log.textContent += line + '\n';
  }
  function post(entry, message) {
    note(entry, '→ ' + (message.method || ('reply #' + message.id + (message.error ? ' error ' + message.error.code : ''))));
    entry.frame.contentWindow.postMessage(message, '*');
  }
  function reply(entry, id, result) { post(entry, { jsonrpc: '2.0', id: id, result: result }); }
  function fail(entry, id, code, message) { post(entry, { jsonrpc: '2.0', id: id, error: { code: code, message: message } }); }
  function forward(entry, id, path, body) {
    window.__agentTesterApi('POST', path, body).then(function (data) {
      if (data && data.error) fail(entry, id, data.error.code || -32603, data.error.message || 'error');
      else reply(entry, id, data.result);
    }, function (err) { fail(entry, id, -32603, err.message); });
  }

  function handle(entry, msg) {
    var isRequest = msg.id !== undefined && msg.id !== null;
    var params = msg.params || {};
    note(entry, '← ' + msg.method + (isRequest ? ' #' + msg.id : ''));
    switch (msg.method) {
      case 'ui/initialize':
        reply(entry, msg.id, {
          protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : PROTOCOL,
          hostInfo: HOST_INFO,
          hostCapabilities: { serverTools: {}, serverResources: {}, logging: {} },
          hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web', locale: navigator.language },
        });
        return;
      case 'ui/notifications/initialized':
        if (entry.sent) return;
        entry.sent = true;
        post(entry, { jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: entry.app.arguments || {} } });
        if (entry.app.result) post(entry, { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: entry.app.result });
        return;
      case 'tools/call':
        forward(entry, msg.id, '/api/view/tools/call', { name: params.name, arguments: params.arguments || {} });
        return;
      case 'resources/read':
        forward(entry, msg.id, '/api/view/resources/read', { uri: params.uri });
        return;
      case 'ping':
        reply(entry, msg.id, {});
        return;
      case 'ui/notifications/size-changed':
        if (typeof params.height === 'number') entry.frame.style.height = Math.min(800, Math.max(40, Math.ceil(params.height))) + 'px';
        return;
      case 'notifications/message':
        note(entry, '   log ' + (params.level || '') + ': ' + (typeof params.data === 'string' ? params.data : JSON.stringify(params.data)));
        return;
      default:
        if (isRequest) fail(entry, msg.id, -32601, msg.method + ' is not supported by the Agent Tester host');
    }
  }

  window.addEventListener('message', function (event) {
    var entry = null;
    for (var i = 0; i < frames.length; i++) if (frames[i].frame.contentWindow === event.source) entry = frames[i];
    var msg = event.data;
    if (!entry || !msg || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') return;
    handle(entry, msg);
  });

  window.__agentTesterMountView = function (frame, app, log) {
    frames.push({ frame: frame, app: app, log: log, sent: false });
    frame.srcdoc = withCsp(app.view.html, app.view.csp);
  };
})();
`;
