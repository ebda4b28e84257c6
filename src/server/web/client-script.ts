// The one small browser script (served as /assets/app.js): live chat replies and dream progress over SSE.
// Every page works without it; it only sends chat messages without a reload and keeps views current.

export const CLIENT_SCRIPT = String.raw`'use strict';
(function () {
  var body = document.body;
  var page = body.dataset.page;
  var byId = function (id) { return document.getElementById(id); };
  var notice = document.querySelector('.notice');
  function say(text) { if (notice) { notice.textContent = text; notice.hidden = false; } }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function runLink(id) {
    var a = el('a', '', id);
    a.href = '/dreams/' + encodeURIComponent(id);
    return a;
  }
  function stepLine(event) {
    var li = el('li', event.ok ? 'ok' : 'failed');
    li.dataset.step = event.step;
    li.append(el('span', 'step-name', event.step), ' ', el('span', 'step-result', (event.ok ? '✓ ' : '✗ ') + (event.durationMs || 0) + ' ms'));
    if (event.detail) li.append(' ', el('span', 'step-detail', event.detail));
    return li;
  }

  Array.prototype.forEach.call(document.querySelectorAll('form[data-confirm]'), function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });

  if (!window.EventSource || page === 'memory' || page === 'error') return;
  var stream = new EventSource('/api/events?after=' + encodeURIComponent(body.dataset.after || '0'));
  function on(name, handle) {
    stream.addEventListener(name, function (event) { handle(JSON.parse(event.data)); });
  }
  window.addEventListener('pagehide', function () { stream.close(); });

  if (page === 'chat') chatPage();
  if (page === 'dreams') dreamsPage();
  if (page === 'run') runPage();

  function chatPage() {
    var jid = body.dataset.jid;
    var list = byId('messages');
    var form = byId('composer');
    var input = byId('composer-text');
    var button = form.querySelector('button');
    var seen = new Set(Array.prototype.map.call(list.children, function (li) { return li.dataset.id; }));
    function scroll() { if (list.lastElementChild) list.lastElementChild.scrollIntoView({ block: 'end' }); }
    function add(message) {
      if (message.chatJid !== jid || seen.has(message.id)) return;
      seen.add(message.id);
      var empty = byId('empty-chat');
      if (empty) empty.remove();
      var kind = message.role === 'user' ? 'user' : message.sender === 'dreamlane' ? 'dream' : 'assistant';
      var who = kind === 'user' ? (message.senderName || 'You') : kind === 'dream' ? 'Dream' : 'Assistant';
      var li = el('li', 'msg msg-' + kind);
      li.dataset.id = message.id;
      var meta = el('p', 'meta');
      var time = el('time', '', message.timestamp.slice(0, 10) + ' ' + message.timestamp.slice(11, 19) + ' UTC');
      time.dateTime = message.timestamp;
      meta.append(el('span', 'who', who), ' ', time);
      li.append(meta, el('div', 'text', message.content));
      list.append(li);
      scroll();
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var text = input.value;
      if (!text.trim()) return;
      button.disabled = true;
      input.value = '';
      fetch('/api/chats/' + encodeURIComponent(jid) + '/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: text }),
      })
        .then(function (response) {
          return response.json().then(function (data) {
            if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
            add(data.message);
            add(data.reply);
          });
        })
        .catch(function (error) {
          input.value = text;
          say('Not sent: ' + error.message);
        })
        .finally(function () {
          button.disabled = false;
          input.focus();
        });
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    on('message', function (data) { add(data.message); });

    var panel = byId('activity');
    var status = byId('activity-status');
    var steps = byId('activity-steps');
    var tools = 0;
    function show(run, words) { status.replaceChildren('Dream ', runLink(run), ' ' + words); }
    on('queued', function (data) {
      panel.dataset.runId = data.run.id;
      panel.dataset.state = 'queued';
      tools = 0;
      steps.replaceChildren();
      show(data.run.id, 'queued (' + data.run.mode + ', last ' + data.run.days + ' day(s)).');
    });
    on('step', function (data) {
      if (data.runId !== panel.dataset.runId) return;
      panel.dataset.state = 'running';
      if (data.phase === 'start') show(data.runId, 'running: ' + data.step + '…');
      else steps.append(stepLine(data));
    });
    on('tool', function (data) {
      if (data.runId !== panel.dataset.runId) return;
      tools += 1;
      show(data.runId, 'running: model turn, ' + tools + ' tool call(s)…');
    });
    on('finished', function (data) {
      if (data.run.id !== panel.dataset.runId) return;
      panel.dataset.state = 'finished';
      show(data.run.id, data.run.status + '.');
    });
    scroll();
  }

  function dreamsPage() {
    // A form post on this page (start, restore) navigates away; a reload racing it would cancel that.
    var leaving = false;
    document.addEventListener('submit', function (event) { if (!event.defaultPrevented) leaving = true; });
    function refresh() { if (!leaving) location.reload(); }
    on('queued', refresh);
    on('finished', refresh);
    on('restored', refresh);
    on('step', function (data) {
      var row = document.querySelector('tr[data-run-id="' + CSS.escape(data.runId) + '"]');
      if (!row) return;
      var state = row.querySelector('.status');
      state.textContent = 'running';
      state.className = 'status status-running';
      row.querySelector('.progress').textContent = data.phase === 'start' ? data.step + '…' : data.step + (data.ok ? ' ✓' : ' ✗');
    });
  }

  function runPage() {
    var id = body.dataset.runId;
    var live = byId('run-live');
    var steps = byId('steps');
    var tools = 0;
    on('step', function (data) {
      if (data.runId !== id) return;
      byId('run-status').textContent = 'running';
      if (data.phase === 'start') live.textContent = 'Running: ' + data.step + '…';
      else steps.append(stepLine(data));
    });
    on('tool', function (data) {
      if (data.runId !== id) return;
      tools += 1;
      live.textContent = 'Running: model turn, ' + tools + ' tool call(s)…';
    });
    on('finished', function (data) {
      if (data.run.id === id) location.reload();
    });
  }
})();
`
