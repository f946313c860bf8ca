// Cartulina with no network (issue 15). Every page works without this file.
//
// - Registers the service worker (/sw.js), which keeps the shell and the pages the phone opened.
// - A page opened with no network says so: "sin conexión · datos de las HH:MM" (when the server
//   made that copy); a watcher's view refreshes again when the network returns.
// - A form marked data-offline="hand" (or "pass", or any other kind the server reads, see
//   OFFLINE_FORMS in scorer/web/api/entries.py) saved with no network is kept in IndexedDB, as its fields
//   exactly as the form has them, with an Idempotency-Key; the table page lists it "pendiente de
//   guardar". When the network returns the queue is sent in order to
//   POST /api/tables/<token>/entries/form, which reads the fields with the form's own code. An
//   entry the server refuses stays, with its reason, to be corrected (its form reopened with what
//   was entered) or discarded.
// - The network's return is noticed without trusting the browser's `online` event or navigator.onLine
//   (a page the worker served offline may never see either change, issue 21): while something waits
//   (entries to send, the "sin conexión" note) the server is asked again 2 s after a failure, then
//   4, 8, 16 and every 30 s; at once when the page is shown again and when any other request of the
//   page gets the server's answer.
// Nothing here knows the game: no rule, no field name of a hand.
(function () {
  "use strict";

  // The words shown to people come from the page, in its language (static/i18n.js).
  var msg = window.cartulinaText;

  var DB_NAME = "cartulina";
  var STORE = "queue";
  var DEALS = ["hand", "pass"]; // kinds of entry that take a deal (an ajuste, a cambio do not: R32, R33)

  // When to ask the server again after it did not answer (issue 21): 2 s, then twice as long each
  // time, at most 30 s. `previous` is the last wait (0: none yet).
  var RETRY_FIRST_MS = 2000;
  var RETRY_MAX_MS = 30000;
  function retryDelay(previous) {
    return previous ? Math.min(previous * 2, RETRY_MAX_MS) : RETRY_FIRST_MS;
  }

  // ------------------------------------------------------------- the queue (IndexedDB)

  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("table", "table");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // One transaction; resolves with what `work(store)` returned (a request's result once complete).
  function withStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var out = work(tx.objectStore(STORE));
        tx.oncomplete = function () {
          db.close();
          resolve(out && typeof out === "object" && "readyState" in out ? out.result : out);
        };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  var queue = {
    // the entries of a table, in the order they were written (ids only grow)
    list: function (table) {
      return withStore("readonly", function (store) { return store.index("table").getAll(table); })
        .then(function (entries) { return entries.sort(function (a, b) { return a.id - b.id; }); });
    },
    add: function (entry) { return withStore("readwrite", function (store) { return store.add(entry); }); },
    put: function (entry) { return withStore("readwrite", function (store) { return store.put(entry); }); },
    get: function (id) { return withStore("readonly", function (store) { return store.get(id); }); },
    // the entries after it now follow what it followed
    discard: function (entry) {
      return queue.list(entry.table).then(function (entries) {
        return withStore("readwrite", function (store) {
          entries.forEach(function (other) {
            if (other.after === entry.key && other.id !== entry.id) {
              other.after = entry.after;
              store.put(other);
            }
          });
          store.delete(entry.id);
        });
      });
    },
  };

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // ------------------------------------------------------------- sending, in order

  function tableToken() {
    var match = window.location.pathname.match(/^\/t\/([^/]+)/);
    return match ? match[1] : null;
  }

  function send(entry) {
    return serverFetch("/api/tables/" + encodeURIComponent(entry.table) + "/entries/form", {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "Idempotency-Key": entry.key },
      body: JSON.stringify({ form: entry.form, fields: entry.fields, after: entry.after, dealer: entry.dealer }),
    });
  }

  // Send the table's queue, oldest first; stop at the first refusal (it waits for the keeper) or when
  // the network fails (tried again later). Resolves with how many were saved.
  function sendQueue(table) {
    var saved = 0;
    function next() {
      return queue.list(table).then(function (entries) {
        var entry = entries[0];
        if (!entry || entry.state === "refused") return saved;
        return send(entry).then(function (response) {
          if (response.ok) {
            saved += 1;
            return withStore("readwrite", function (store) { store.delete(entry.id); }).then(next);
          }
          if (response.status >= 500 || response.status === 429) return saved; // later
          return response.json().catch(function () { return {}; }).then(function (answer) {
            entry.state = "refused";
            entry.error = answer.error || msg("refused_status", { status: response.status });
            entry.reason = answer.reason || entry.error; // why, without "no se ha guardado"
            entry.problems = answer.problems || {};
            return queue.put(entry).then(function () { return saved; });
          });
        }, function () { return saved; }); // no network after all
      });
    }
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("cartulina-queue-" + table, next); // one sender per table, across tabs
    }
    return next();
  }

  // ------------------------------------------------------------- the page

  var state = {
    token: tableToken(), entries: null, sending: false, submitting: false, through: false, confirmed: false,
    away: null, // did the server answer the last try? (null: not asked yet)
    kept: false,
  };

  // No network? The server's last answer says, once there is one: navigator.onLine can stay false
  // after the network returns (issue 21). Before it, the browser's word.
  function offline() { return state.away === null ? !navigator.onLine : state.away; }

  function hhmm(iso) {
    var date = new Date(iso);
    if (!iso || isNaN(date.getTime())) return "";
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return two(date.getHours()) + ":" + two(date.getMinutes());
  }

  function banner(show) {
    var note = document.getElementById("sin-conexion");
    if (!show) {
      if (note) note.hidden = true;
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = "sin-conexion";
      note.className = "panel offline-note";
      note.setAttribute("role", "status");
      var main = document.getElementById("contenido") || document.body;
      main.insertBefore(note, main.firstChild);
    }
    var at = hhmm(document.body.getAttribute("data-rendered-at"));
    note.textContent = at ? msg("offline_at", { time: at }) : msg("offline");
    note.hidden = false;
  }

  // Is the server there? (navigator.onLine only knows about the phone's own connection: a wifi with
  // no way out, or the server down, look "online".) Resolves with the table's state, or null.
  var PROBE_MS = 4000;
  function reachable() {
    if (!state.token) return Promise.resolve(navigator.onLine ? {} : null);
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, PROBE_MS) : null;
    var url = "/t/" + encodeURIComponent(state.token) + "/estado";
    return serverFetch(url, { cache: "no-store", credentials: "same-origin", signal: abort ? abort.signal : undefined })
      .then(function (r) { return r.ok ? r.json() : {}; }, function () { return null; })
      .then(function (status) {
        clearTimeout(timer);
        state.away = status === null;
        return status;
      });
  }

  function tablePath() { return "/t/" + state.token; }

  function onTablePage() { return state.token && window.location.pathname === tablePath(); }

  function pendingDeals() {
    return (state.entries || []).filter(function (e) { return DEALS.indexOf(e.form) >= 0; }).length;
  }

  function formsCycle() {
    var list = (document.body.getAttribute("data-offline-forms") || "").split(" ").filter(Boolean);
    if (!list.length) {
      try { list = JSON.parse(localStorage.getItem("cartulina-forms-" + state.token) || "[]"); } catch (e) { list = []; }
    }
    return list;
  }

  // What the keeper entered, in the words on the form (the labels of what is chosen), for the list.
  function describe(form, submitter) {
    var words = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.disabled) return;
      var chosen = el.type === "radio" || el.type === "checkbox" ? el.checked && el.value !== "" : el.value.trim() !== "";
      if (!chosen) return;
      var label = el.labels && el.labels.length ? el.labels[0].textContent.trim() : "";
      var text = el.type === "radio" || el.type === "checkbox" ? label || el.value : (label ? label + " " : "") + el.value;
      if (/^\d+$/.test(text)) {
        var group = el.closest("[role=radiogroup], fieldset");
        var name = group && (group.getAttribute("aria-label") || (group.querySelector("legend") || {}).textContent);
        if (group && group.getAttribute("aria-labelledby")) {
          var by = document.getElementById(group.getAttribute("aria-labelledby"));
          if (by) name = by.textContent;
        }
        if (name) text = name.trim().replace(/\s+/g, " ") + " " + text;
      }
      words.push(text.replace(/\s+/g, " "));
    });
    if (!words.length && submitter) words.push(submitter.textContent.trim());
    return words.join(" · ");
  }

  function fieldsOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }

  function fixId() {
    var match = window.location.hash.match(/^#corregir=(\d+)$/);
    return match ? parseInt(match[1], 10) : null;
  }

  function enqueue(form, submitter) {
    var kind = form.getAttribute("data-offline");
    var fixing = fixId();
    var fields = fieldsOf(form);
    var label = describe(form, submitter);
    var here = window.location.pathname + window.location.search;
    // the seat the form was made for, when it says (data-dealer): the server refuses it for another
    var dealer = parseInt(form.getAttribute("data-dealer"), 10);
    dealer = isNaN(dealer) ? null : dealer;
    if (fixing !== null) {
      return queue.get(fixing).then(function (entry) {
        if (!entry) return null;
        entry.fields = fields;
        entry.label = label;
        entry.state = "pending";
        entry.error = null;
        entry.reason = null;
        entry.problems = {};
        entry.after = null; // entered again on the table as it is now
        entry.dealer = dealer;
        return queue.put(entry);
      });
    }
    return queue.list(state.token).then(function (entries) {
      var last = entries[entries.length - 1];
      return queue.add({
        table: state.token,
        form: kind,
        fields: fields,
        label: label,
        key: newKey(),
        after: last ? last.key : null,
        dealer: dealer,
        url: here,
        created: new Date().toISOString(),
        state: "pending",
      });
    });
  }

  function onSubmit(event) {
    var form = event.target;
    var kind = form.getAttribute && form.getAttribute("data-offline");
    var submitter = event.submitter || null;
    if (!kind || !state.token) {
      if (form.method === "post") postIfReachable(event, form, submitter, "offline_cannot"); // an edit, a deletion…
      return;
    }
    if (submitter && submitter.name === "preview") {
      postIfReachable(event, form, submitter, "offline_queued");
      return;
    }
    if (state.through) return; // the server answered: the ordinary POST
    event.preventDefault();
    if (state.submitting) return; // a second tap
    state.submitting = true;
    var queued = state.entries === null ? 0 : state.entries.length;
    var direct = fixId() === null && !offline() && queued === 0;
    if (direct) form.setAttribute("data-asking", ""); // static/reach.js: Guardar shows it is at work
    (direct ? reachable() : Promise.resolve(null)).then(function (status) {
      form.removeAttribute("data-asking");
      if (status === null) idle(form); // nothing posted: the button comes back
      if (status !== null) { // the server is there: the form's own POST, as without this file
        state.through = true;
        if (form.requestSubmit) form.requestSubmit(submitter || undefined);
        else form.submit();
        return null;
      }
      if (mustConfirm(form)) { // offline: what the server knew, shown before one explicit tap
        state.submitting = false;
        return null;
      }
      return enqueue(form, submitter).then(function () {
        window.location.assign(tablePath());
      });
    }).catch(function () {
      state.submitting = false;
      state.through = false;
      form.removeAttribute("data-asking");
      idle(form);
      note(form, msg("store_failed"));
    });
  }

  function idle(form) {
    form.dispatchEvent(new CustomEvent("cartulina:idle"));
  }

  // A form that is not kept offline, posted while the network may be gone (the browser says so, or the
  // server did not answer): posted once the server answers, else it stays, saying why. navigator.onLine
  // alone decides neither way: it can stay false after the network returns (issue 21).
  function postIfReachable(event, form, submitter, why) {
    if (state.through || (navigator.onLine && !state.away)) return;
    event.preventDefault();
    form.setAttribute("data-asking", "");
    reachable().then(function (status) {
      form.removeAttribute("data-asking");
      if (status === null) {
        idle(form);
        return note(form, msg(why));
      }
      state.through = true;
      if (form.requestSubmit) form.requestSubmit(submitter || undefined);
      else form.submit();
    });
  }

  // A form marked data-offline-confirm="<field>" (the cambio de jugador) is confirmed online after the
  // server's preview. Offline its page carries, in #offline-confirm, one block per value of that
  // field (data-seat), written by the server when the page was made: the block of the value chosen
  // is shown, and only its button queues the form. The blocks' words are the server's.
  function mustConfirm(form) {
    var field = form.getAttribute("data-offline-confirm");
    var box = document.getElementById("offline-confirm");
    if (!field || !box || state.confirmed) return false;
    var chosen = form.elements[field] ? form.elements[field].value : "";
    var at = hhmm(document.body.getAttribute("data-rendered-at"));
    Array.prototype.forEach.call(box.querySelectorAll("[data-seat]"), function (block) {
      block.hidden = block.getAttribute("data-seat") !== chosen;
    });
    Array.prototype.forEach.call(box.querySelectorAll(".offline-at"), function (span) {
      if (at) span.textContent = at;
    });
    var later = box.querySelector(".offline-later"); // entries waiting: the page's data is older than them
    if (later) later.hidden = !(state.entries && state.entries.length);
    var none = box.querySelector(".offline-none");
    if (none) none.hidden = chosen !== "";
    var button = document.getElementById("offline-confirm-button");
    if (button) button.disabled = chosen === "";
    box.hidden = false;
    if (!box.getAttribute("data-ready")) {
      box.setAttribute("data-ready", "true");
      form.addEventListener("change", function () { box.hidden = true; }); // chosen again: shown again
      if (button) {
        button.addEventListener("click", function () {
          if (state.submitting) return; // a second tap
          state.submitting = state.confirmed = true;
          enqueue(form, null).then(function () {
            window.location.assign(tablePath());
          }, function () {
            state.submitting = state.confirmed = false;
            note(form, msg("store_failed"));
          });
        });
      }
    }
    box.scrollIntoView({ block: "center" });
    if (button) button.focus();
    return true;
  }

  function note(form, text) {
    var p = document.getElementById("offline-form-note");
    if (!p) {
      p = document.createElement("p");
      p.id = "offline-form-note";
      p.className = "error-text";
      p.setAttribute("role", "alert");
      form.parentNode.insertBefore(p, form);
    }
    p.textContent = text;
    p.scrollIntoView({ block: "center" });
  }

  // "Anotar mano" with entries pending or no network: the form of the deal after those entries.
  function onClick(event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || !state.token || link.origin !== window.location.origin) return;
    if (link.pathname !== tablePath() + "/mano") return;
    var deals = pendingDeals();
    if (navigator.onLine && !state.away && deals === 0) return;
    var forms = formsCycle();
    if (!forms.length) return;
    event.preventDefault();
    window.location.assign(forms[deals % forms.length]);
  }

  // The table page: the entries waiting, in order, each with its state.
  function showQueue() {
    if (!onTablePage()) return;
    var entries = state.entries || [];
    var box = document.getElementById("pendientes");
    if (!entries.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("section");
      box.id = "pendientes";
      box.className = "panel pending";
      box.setAttribute("aria-labelledby", "pendientes-h");
      var main = document.getElementById("contenido") || document.body;
      var heading = main.querySelector("h1");
      main.insertBefore(box, heading ? heading.nextSibling : main.firstChild);
    }
    box.textContent = "";
    var h = document.createElement("h2");
    h.id = "pendientes-h";
    h.textContent = entries.length === 1 ? msg("pending_one") : msg("pending_many", { n: entries.length });
    box.appendChild(h);
    var list = document.createElement("ol");
    list.className = "hands";
    entries.forEach(function (entry, i) {
      var item = document.createElement("li");
      item.className = "pending-entry";
      item.setAttribute("data-state", entry.state);
      var what = document.createElement("span");
      what.textContent = entry.label || entry.form;
      item.appendChild(what);
      var status = document.createElement("strong");
      status.className = entry.state === "refused" ? "error-text" : "muted";
      status.textContent = " · " + (entry.state === "refused" ? msg("not_saved") : msg("pending"));
      item.appendChild(status);
      if (entry.state === "refused") {
        var why = document.createElement("p");
        why.className = "error-text";
        var reason = String(entry.reason || entry.error || "");
        why.textContent = reason.charAt(0).toUpperCase() + reason.slice(1);
        item.appendChild(why);
        var actions = document.createElement("div");
        actions.className = "actions";
        if (entry.url && entry.url.split("?")[0] !== tablePath()) {
          var fix = document.createElement("a");
          fix.className = "button primary";
          var forms = formsCycle();
          var url = i === 0 && forms.indexOf(entry.url) >= 0 ? forms[0] : entry.url;
          fix.href = url + "#corregir=" + entry.id;
          fix.textContent = msg("fix");
          actions.appendChild(fix);
        }
        var drop = document.createElement("button");
        drop.type = "button";
        drop.className = "danger";
        drop.textContent = msg("discard");
        drop.addEventListener("click", function () {
          queue.discard(entry).then(refresh).then(trySend);
        });
        actions.appendChild(drop);
        item.appendChild(actions);
      }
      list.appendChild(item);
    });
    box.appendChild(list);
    var help = document.createElement("p");
    help.className = "muted small";
    help.textContent = msg("pending_help");
    box.appendChild(help);
  }

  function refresh() {
    if (!state.token || !window.indexedDB) return Promise.resolve();
    return queue.list(state.token).then(function (entries) {
      state.entries = entries;
      document.body.setAttribute("data-pending", String(entries.length));
      showQueue();
    });
  }

  // Try to send what is waiting; on the table page, show the server's state afterwards.
  function trySend() {
    if (state.sending || !state.token || !state.entries || !state.entries.length) {
      return Promise.resolve(0);
    }
    state.sending = true;
    return sendQueue(state.token).then(function (saved) {
      state.sending = false;
      return refresh().then(function () {
        if (saved && onTablePage()) {
          try { sessionStorage.setItem("cartulina-saved", String(saved)); } catch (e) { /* private mode */ }
          window.location.reload();
        }
        return saved;
      });
    }, function () {
      state.sending = false;
      return 0;
    });
  }

  function savedNote() {
    var saved = null;
    try {
      saved = sessionStorage.getItem("cartulina-saved");
      sessionStorage.removeItem("cartulina-saved");
    } catch (e) { /* private mode */ }
    if (!saved || !onTablePage()) return;
    var p = document.createElement("p");
    p.className = "flash";
    p.setAttribute("role", "status");
    p.textContent = saved === "1" ? msg("saved_one") : msg("saved_many", { n: saved });
    var main = document.getElementById("contenido") || document.body;
    main.insertBefore(p, main.firstChild);
  }

  // The form reopened to correct a refused entry: what was entered, and why it was refused.
  function fillForFix() {
    var id = fixId();
    var form = document.querySelector("form[data-offline]");
    if (id === null || !form) return;
    queue.get(id).then(function (entry) {
      if (!entry) return;
      var given = {};
      entry.fields.forEach(function (pair) { (given[pair[0]] = given[pair[0]] || []).push(pair[1]); });
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.name === "csrf_token") return;
        var values = given[el.name];
        if (el.type === "radio" || el.type === "checkbox") {
          if (values || el.type === "checkbox") el.checked = !!values && values.indexOf(el.value) >= 0;
        } else if (values) {
          el.value = values[0];
        }
      });
      // the page's own scripts follow what was restored (as if tapped)
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit") return;
        var set = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value !== "";
        if (set) el.dispatchEvent(new Event("change", { bubbles: true }));
      });
      note(form, entry.error || msg("fix_entry"));
      Object.keys(entry.problems || {}).forEach(function (name) {
        var box = document.getElementById("f-" + name);
        if (!box) return;
        box.classList.add("field-error");
        var p = document.createElement("p");
        p.className = "error-text";
        p.textContent = entry.problems[name].join(" ");
        box.appendChild(p);
      });
    });
  }

  // Keep this table's next forms (and this page) for offline: once per change of the table.
  function keepForms() {
    if (!("serviceWorker" in navigator) || state.kept) return;
    state.kept = true;
    var forms = formsCycle();
    var revision = document.body.getAttribute("data-table-revision");
    // this page too, when it was loaded before the worker was there to keep it
    var urls = navigator.serviceWorker.controller ? [] : [window.location.pathname + window.location.search];
    var mark = "cartulina-kept-" + state.token;
    var others = (document.body.getAttribute("data-offline-keep") || "").split(" ").filter(Boolean);
    if (forms.length && revision !== null) {
      try {
        localStorage.setItem("cartulina-forms-" + state.token, JSON.stringify(forms));
        if (localStorage.getItem(mark) !== revision) urls = urls.concat(forms, others);
      } catch (e) { urls = urls.concat(forms, others); }
    }
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = registration.active;
      if (!worker) return;
      if (!urls.length) {
        document.body.setAttribute("data-offline-ready", "true");
        return;
      }
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) {
        var data = event.data || {};
        if (data.kept === data.asked) {
          try { if (revision !== null) localStorage.setItem(mark, revision); } catch (e) { /* private mode */ }
        }
        document.body.setAttribute("data-offline-ready", "true");
      };
      worker.postMessage({ type: "keep", urls: urls }, [channel.port2]);
    });
  }

  // Ask the server; when it answers: the note goes, the queue is sent, the page catches up.
  function whenOnline() {
    return reachable().then(function (status) {
      if (status === null) return banner(true);
      banner(false);
      if (onTablePage()) keepForms(); // a page opened offline keeps the next forms now
      return trySend().then(function (saved) {
        if (!saved) freshen(status);
      });
    });
  }

  // Does anything wait for the network? Entries to send (not one refused first), or the note shown.
  function waiting() {
    var first = (state.entries || [])[0];
    return !!state.token && (offline() || (!!first && first.state !== "refused"));
  }

  // Ask again: now (a sign of the network), or after retryDelay() while the answer is still no.
  var retry = { timer: null, delay: 0, asking: false };
  function retryNow() {
    retry.delay = 0;
    askServer();
  }
  function askServer() {
    clearTimeout(retry.timer);
    retry.timer = null;
    if (retry.asking) return;
    retry.asking = true;
    function then() {
      retry.asking = false;
      if (!waiting()) {
        retry.delay = 0;
        return;
      }
      retry.delay = retryDelay(retry.delay);
      retry.timer = setTimeout(askServer, retry.delay);
    }
    whenOnline().then(then, then);
  }

  // Any answer of the server to the page's other requests (a preview, a watcher's refresh) means the
  // network is back. Our own requests go through serverFetch, the browser's fetch as it was.
  var serverFetch = window.fetch ? window.fetch.bind(window) : null;
  function watchAnswers() {
    if (!serverFetch) return;
    window.fetch = function () {
      var answer = serverFetch.apply(null, arguments);
      answer.then(function (response) {
        var origin = window.location.origin;
        var server = response.url.indexOf(origin + "/") === 0 && response.url.indexOf(origin + "/static/") !== 0;
        if (server && response.status < 500 && offline()) retryNow(); // (the worker answers /static/)
      }, function () { /* no network: the schedule goes on */ });
      return answer;
    };
  }

  // A table page shown from the phone's copy while the table moved on: the server's page (at most
  // every FRESH_MS for one revision: a network so slow that the copy comes first does not loop).
  var FRESH_MS = 15000;
  function freshen(status) {
    var shown = document.body.getAttribute("data-revision") || document.body.getAttribute("data-table-revision");
    if (!onTablePage() || shown === null || status.revision === undefined) return;
    var now = String(status.revision);
    if (now === shown) return;
    var mark = "cartulina-fresh-" + state.token;
    try {
      var last = (sessionStorage.getItem(mark) || "").split("@");
      if (last[0] === now && Date.now() - Number(last[1]) < FRESH_MS) return;
      sessionStorage.setItem(mark, now + "@" + Date.now());
    } catch (e) { return; }
    window.location.reload();
  }

  function start() {
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* no worker: online only */ });
    }
    document.addEventListener("submit", onSubmit);
    document.addEventListener("click", onClick);
    window.addEventListener("offline", function () {
      banner(true);
      if (state.token) { state.away = true; retryNow(); }
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) state.submitting = state.through = false; // back from the page cache
    });
    if (!navigator.onLine) banner(true);
    if (!state.token) {
      window.addEventListener("online", whenOnline);
      return;
    }
    window.addEventListener("online", retryNow);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && waiting()) retryNow();
    });
    watchAnswers();
    refresh().then(function () {
      savedNote();
      fillForFix();
      retryNow();
    });
    if (navigator.onLine && onTablePage()) keepForms();
  }

  if (typeof document === "undefined") return;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
