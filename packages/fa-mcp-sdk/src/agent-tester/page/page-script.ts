/**
 * The chat script of the Agent Tester page (plain browser JavaScript, inlined).
 * Everything the server or the model sent is put in the page with textContent,
 * never as HTML. A token in the page's own query string (`?token=` /
 * `?access_token=`) is kept in memory, removed from the address bar, and sent
 * as a bearer token with every API call. Views are mounted by the bridge
 * script (`window.__agentTesterMountView`).
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var base = document.body.getAttribute('data-base');
  var params = new URLSearchParams(location.search);
  var token = params.get('access_token') || params.get('token');
  if (token) history.replaceState(null, '', location.pathname);
  var byId = function (id) { return document.querySelector('[data-testid="' + id + '"]'); };
  var input = byId('prompt-input'), send = byId('send-button'), reset = byId('reset-button'), status = byId('status'), turns = byId('turns');

  function api(method, path, body) {
    var headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(base + path, { method: method, headers: headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          if (!res.ok) {
            var err = new Error((data && (data.message || data.error_description || data.error)) || ('HTTP ' + res.status));
            err.status = res.status;
            throw err;
          }
          return data;
        });
      });
  }
  window.__agentTesterApi = api;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) node.append(c); });
    return node;
  }
  function json(value) { try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); } }
  function setStatus(text) { status.textContent = text; }

  function renderToolCall(call, app) {
    var ok = !call.isError;
    var body = el('div', { class: 'body' }, [
      el('div', { class: 'label' }, ['arguments']),
      el('pre', { 'data-testid': 'tool-call-arguments' }, [json(call.arguments)]),
    ]);
    if (call.result !== undefined) body.append(el('div', { class: 'label' }, ['result']), el('pre', { 'data-testid': 'tool-call-result' }, [json(call.result)]));
    if (call.error) body.append(el('div', { class: 'error', 'data-testid': 'tool-call-error' }, [call.error]));
    if (app) body.append(renderApp(app));
    return el('details', { class: 'tool-call', 'data-testid': 'tool-call', 'data-tool-name': call.name, 'data-is-error': String(!ok), open: '' }, [
      el('summary', {}, [
        el('span', { class: 'name', 'data-testid': 'tool-call-name' }, [call.name]),
        el('span', { class: 'timing', 'data-testid': 'tool-call-duration' }, [call.durationMs + ' ms']),
        el('span', { class: 'status ' + (ok ? 'ok' : 'error'), 'data-testid': 'tool-call-status' }, [ok ? 'ok' : 'error']),
        el('span', { class: 'timing' }, ['turn ' + call.turn]),
      ]),
      body,
    ]);
  }

  function renderApp(app) {
    var box = el('div', { 'data-testid': 'app-call', 'data-resource-uri': app.resourceUri }, [el('div', { class: 'label' }, ['view ' + app.resourceUri])]);
    if (!app.view) {
      box.append(el('div', { class: 'error', 'data-testid': 'app-view-error' }, [app.viewError || 'no view']));
      return box;
    }
    var log = el('pre', { class: 'app-log', 'data-testid': 'app-view-log' }, []);
    var frame = el('iframe', { class: 'app-view', 'data-testid': 'app-view', sandbox: 'allow-scripts', title: app.resourceUri }, []);
    box.append(frame, el('details', {}, [el('summary', { 'data-testid': 'app-view-log-toggle' }, ['bridge messages']), log]));
    setTimeout(function () { window.__agentTesterMountView(frame, app, log); }, 0);
    return box;
  }

  function renderTrace(turn, trace) {
    var apps = {};
    (trace.appCalls || []).forEach(function (a) { apps[a.toolCallId] = a; });
    var calls = el('section', { 'data-testid': 'tool-calls' }, trace.toolCalls.map(function (c) { return renderToolCall(c, apps[c.id]); }));
    turn.append(calls);
    if (trace.finalAnswer !== null && trace.finalAnswer !== undefined) turn.append(el('div', { class: 'answer', 'data-testid': 'final-answer' }, [trace.finalAnswer]));
    if (trace.error) turn.append(el('div', { class: 'error', 'data-testid': 'turn-error' }, [trace.error.message]));
    var u = trace.usage;
    turn.append(el('div', { class: 'facts' }, [
      el('span', { 'data-testid': 'turn-stop-reason' }, [trace.stopReason]),
      el('span', { 'data-testid': 'turn-duration' }, [trace.durationMs + ' ms']),
      el('span', { 'data-testid': 'turn-usage' }, [u.totalTokens + ' tokens (' + u.promptTokens + ' in, ' + u.completionTokens + ' out)']),
      el('span', {}, [trace.modelCalls.length + ' model requests']),
    ]));
    turn.append(el('details', { 'data-testid': 'trace-json' }, [el('summary', { 'data-testid': 'trace-json-toggle' }, ['trace JSON']), el('pre', {}, [json(trace)])]));
    turn.setAttribute('data-stop-reason', trace.stopReason);
  }

  function submit() {
    var message = input.value;
    if (!message.trim() || send.disabled) return;
    input.value = '';
    send.disabled = true;
    setStatus('running…');
    var pending = el('div', { class: 'pending', 'data-testid': 'turn-pending' }, ['waiting for the model…']);
    var turn = el('article', { class: 'turn', 'data-testid': 'turn' }, [el('div', { class: 'prompt', 'data-testid': 'turn-prompt' }, [message]), pending]);
    turns.append(turn);
    turn.scrollIntoView({ block: 'end' });
    api('POST', '/api/chat', { message: message })
      .then(function (data) { pending.remove(); renderTrace(turn, data.trace); setStatus('turn ' + data.session.turns); })
      .catch(function (err) { pending.remove(); turn.setAttribute('data-stop-reason', 'requestError'); turn.append(el('div', { class: 'error', 'data-testid': 'turn-error' }, [err.message])); setStatus('error'); })
      .then(function () { send.disabled = false; input.focus(); turn.scrollIntoView({ block: 'end' }); });
  }

  byId('chat-form').addEventListener('submit', function (e) { e.preventDefault(); submit(); });
  input.addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); submit(); } });
  reset.addEventListener('click', function () {
    api('DELETE', '/api/session').then(function () { turns.textContent = ''; setStatus('new conversation'); }, function (err) { setStatus('error: ' + err.message); });
  });

  function fill(list, items, text) {
    list.textContent = '';
    if (!items.length) list.append(el('li', {}, ['none']));
    items.forEach(function (i) { list.append(el('li', {}, text(i))); });
  }
  api('GET', '/api/info').then(function (info) {
    byId('model-name').textContent = info.model || '(no model configured)';
    if (!info.configured) setStatus('no model endpoint configured');
    fill(byId('tools-list'), info.tools, function (t) { return [el('code', {}, [t.name]), t.view ? ' (view)' : '', t.description ? ' — ' + t.description : '']; });
    fill(byId('prompts-list'), info.prompts, function (p) { return [el('code', {}, [p.name])]; });
    fill(byId('resources-list'), info.resources, function (r) { return [el('code', {}, [r.uri])]; });
  }, function (err) { setStatus('error: ' + err.message); });
  setStatus('ready');
})();
`;
