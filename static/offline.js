// Cartulina with no network. Every page works without this file.
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
//   (a page the worker served offline may never see either change): while something waits
//   (entries to send, the "sin conexión" note) the server is asked again 2 s after a failure, then
//   4, 8, 16 and every 30 s; at once when the page is shown again and when any other request of the
//   page gets the server's answer.
// - While offline, on a phone that keeps the engine, the table page and its hand forms
//   behave as one page: a link between them, Guardar and Back put the phone's kept copy of the other
//   page in place of this one (history.pushState), so the engine's worker, started when the network
//   went, stays warm for every hand of the offline stretch.
// Nothing here knows the game: no rule, no field name of a hand.
(function () {
  "use strict";

  // The words shown to people come from the page, in its language (static/i18n.js).
  var msg = window.cartulinaText;
  // What a refusal means and what to do about it (static/offline-refusals.js, loaded before this file).
  var refusals = window.cartulinaRefusals;

  var DB_NAME = "cartulina";
  var STORE = "queue";
  var DEALS = ["hand", "pass"]; // kinds of entry that take a deal (an ajuste, a cambio do not: R32, R33)

  // When to ask the server again after it did not answer: 2 s, then twice as long each
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
    // the entries after it now follow what it followed, and take the deals one earlier (unless
    // another phone took its deal: theirs stay on their deals, offline-refusals.js follow())
    discard: function (entry) {
      return queue.list(entry.table).then(function (entries) {
        return withStore("readwrite", function (store) {
          entries.forEach(function (other) {
            if (other.id === entry.id) return;
            if (other.after === entry.key) other.after = entry.after;
            refusals.follow(other, entry);
            store.put(other);
          });
          store.delete(entry.id);
        });
      });
    },
    // an entry placed again (corrected on the form of the deal it can take): the ones after it follow it
    rechain: function (entry) {
      return queue.list(entry.table).then(function (entries) {
        return withStore("readwrite", function (store) {
          var keys = [];
          var previous = null;
          entries.forEach(function (other) {
            if (previous !== null && typeof previous.deal === "number") {
              other.deal = previous.deal + 1;
              other.revision = previous.revision;
            }
            if (other.id === entry.id || previous !== null) {
              other.before = keys.slice();
              store.put(other);
              previous = other;
            }
            keys.push(other.key);
          });
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
      body: JSON.stringify({
        form: entry.form, fields: entry.fields, after: entry.after, dealer: entry.dealer,
        // the deal it takes and the state it was made against: never two copies of a deal
        deal: typeof entry.deal === "number" ? entry.deal : null,
        revision: typeof entry.revision === "number" ? entry.revision : null,
        before: entry.before || [],
      }),
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
            return response.json().catch(function () { return {}; }).then(function (answer) {
              noteChanged(entry, answer);
              return withStore("readwrite", function (store) { store.delete(entry.id); });
            }).then(next);
          }
          if (response.status >= 500 || response.status === 429) return saved; // later
          return response.json().catch(function () { return {}; }).then(function (answer) {
            entry.state = "refused";
            entry.error = answer.error || msg("refused_status", { status: response.status });
            entry.reason = answer.reason || entry.error; // why, without "no se ha guardado"
            entry.problems = answer.problems || {};
            refusals.judge(entry, answer, response.status);
            if (entry.kind !== "closed") return queue.put(entry).then(function () { return saved; });
            // a closed table takes none of them: each says so
            return withStore("readwrite", function (store) {
              refusals.closeAll(entries).forEach(function (one) { store.put(one); });
            }).then(function () { return saved; });
          });
        }, function () { return saved; }); // no network after all
      });
    }
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("cartulina-queue-" + table, next); // one sender per table, across tabs
    }
    return next();
  }

  // What the phone showed offline for an entry (its engine's payments) against what the server
  // recorded: the hands whose payments differ (another phone's entry came first) are told.
  function noteChanged(entry, answer) {
    if (!entry.shown || !answer || !answer.hand || typeof answer.n !== "number") return;
    var same = entry.shown.n === answer.n &&
      JSON.stringify(entry.shown.transfers) === JSON.stringify(answer.hand.transfers || []);
    if (same) return;
    try {
      var changed = JSON.parse(sessionStorage.getItem("cartulina-changed") || "[]");
      changed.push(answer.n);
      sessionStorage.setItem("cartulina-changed", JSON.stringify(changed));
    } catch (e) { /* private mode */ }
  }

  // ------------------------------------------------------------- the page

  var state = {
    token: tableToken(), entries: null, sending: false, submitting: false, through: false, confirmed: false,
    away: null, // did the server answer the last try? (null: not asked yet)
    kept: false,
  };

  // No network? The server's last answer says, once there is one: navigator.onLine can stay false
  // after the network returns. Before it, the browser's word.
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
        if (state.away && enginePrepared() && enginePage()) window.cartulinaEngine.start();
        return status;
      });
  }

  function tablePath() { return "/t/" + state.token; }

  function onTablePage() { return state.token && window.location.pathname === tablePath(); }

  // Where a payment can be asked for offline: the table page (its new-hand forms are shown in place)
  // and a new-hand form. The other pages (ajuste, cambio, a hand's page) are loaded whole: a worker
  // started there would compile Pyodide for nothing, seconds of a slow phone's processor.
  function enginePage() { return !!(onTablePage() || document.querySelector('form[data-offline="hand"]')); }

  // The deals the waiting entries take: hands and passes that can still be saved (not one whose deal
  // another phone took, nor one of a closed table).
  function takesDeal(e) { return DEALS.indexOf(e.form) >= 0 && refusals.counts(e); }

  function dealsBefore(index) {
    return (state.entries || []).slice(0, index).filter(takesDeal).length;
  }

  function pendingDeals() {
    return (state.entries || []).filter(takesDeal).length;
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

  // The entry a form's page was made for and the table's revision then: the form's data-deal /
  // data-table-revision, its hidden deal / table_revision, or the page's (the table page's pass).
  function placeOf(form) {
    function number(values) {
      for (var i = 0; i < values.length; i++) {
        var n = parseInt(values[i], 10);
        if (!isNaN(n)) return n;
      }
      return null;
    }
    function hidden(name) { return form.elements[name] ? form.elements[name].value : null; }
    var body = document.body;
    return {
      deal: number([form.getAttribute("data-deal"), hidden("deal"), body.getAttribute("data-next-deal")]),
      revision: number([form.getAttribute("data-table-revision"), hidden("table_revision"),
        body.getAttribute("data-table-revision")]),
    };
  }

  // The labels of what is chosen, by field and value: the words of a choice the form of another deal
  // may not offer (its Jugador deals that one), shown when it is corrected there.
  function wordsOf(form) {
    var words = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !(el.type === "radio" || el.type === "checkbox") || !el.checked) return;
      if (!el.labels || !el.labels.length) return;
      (words[el.name] = words[el.name] || {})[el.value] = el.labels[0].textContent.trim().replace(/\s+/g, " ");
    });
    return words;
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
        entry.words = wordsOf(form);
        entry.groups = refusals.groupsOf(form);
        entry.kind = null;
        entry.takenHand = null;
        entry.shown = shownOf(form);
        entry.label = label;
        entry.state = "pending";
        entry.error = null;
        entry.reason = null;
        entry.problems = {};
        entry.after = null; // entered again on the table as it is now
        entry.dealer = dealer;
        entry.taken = null;
        var place = placeOf(form);
        entry.deal = place.deal;
        entry.revision = place.revision;
        entry.fixed = true;
        return queue.put(entry).then(function () { return queue.rechain(entry); });
      });
    }
    return queue.list(state.token).then(function (entries) {
      var last = entries[entries.length - 1];
      var place = placeOf(form);
      var chained = !last || typeof last.deal === "number";
      return queue.add({
        // the deal it takes: the one after the last waiting (a queue kept by an older page: none)
        deal: !chained ? null : last ? last.deal + 1 : place.deal,
        revision: !chained ? null : last ? last.revision : place.revision,
        before: entries.map(function (e) { return e.key; }),
        words: wordsOf(form),
        groups: refusals.groupsOf(form),
        shown: shownOf(form),
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
      if ((!navigator.onLine || state.away) && showOfflinePreview(form)) {
        event.preventDefault(); // worked out on the phone
        return;
      }
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
        return navigate(tablePath());
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
  // alone decides neither way: it can stay false after the network returns.
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
            return navigate(tablePath());
          }).catch(function () {
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

  // How many deals after the one this page shows the next entry is for: the deals the waiting
  // entries take, and those taken since this copy of the page was made (its data-next-deal is older
  // than the first entry's deal).
  function dealsAhead() {
    var shown = parseInt(document.body.getAttribute("data-next-deal"), 10);
    var first = firstDeal();
    var since = typeof first === "number" && !isNaN(shown) && first > shown ? first - shown : 0;
    return since + pendingDeals();
  }

  // The deal of the first entry that can still be saved (null: none, or a queue of an older page).
  function firstDeal() {
    var counted = (state.entries || []).filter(refusals.counts);
    return counted.length ? counted[0].deal : null;
  }

  // "Anotar mano" (and "Juega …") with entries pending or no network: the form of the deal after
  // those entries, with what the link chose (?jugador=…) kept.
  function onClick(event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || !state.token || link.origin !== window.location.origin) return;
    if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target && link.target !== "_self") return;
    if (link.pathname !== tablePath() + "/mano") {
      // the table page, a kept hand form, Corregir: in place while offline (not a jump within this page)
      var here = link.pathname === window.location.pathname && link.search === window.location.search;
      if (here && link.hash) return;
      if (inPlace(link.href)) {
        event.preventDefault();
        navigate(link.href);
      }
      return;
    }
    var deals = dealsAhead();
    if (navigator.onLine && !state.away && deals === 0) return;
    var forms = formsCycle();
    if (!forms.length) return;
    event.preventDefault();
    navigate(forms[deals % forms.length] + link.search);
  }

  // ------------------------------------------------------------- one page while offline
  // With no network, on a phone that keeps the engine, the table page and its new-hand forms are put
  // in place of each other from the service worker's kept copies (the very copies it would serve):
  // the window, and with it the engine's worker, stays. Online, and on any other page, nothing
  // changes: the browser navigates.
  var PAGES = "cartulina-pages-1"; // static/sw.js's cache of pages
  var shownAt = window.location.pathname + window.location.search;

  function inPlace(url) {
    if (!state.token || !offline() || !enginePrepared()) return false;
    if (!window.caches || !window.DOMParser || !window.history || !history.pushState) return false;
    var to = new URL(url, window.location.href);
    if (to.origin !== window.location.origin) return false;
    var table = tablePath();
    var rest = to.pathname.indexOf(table + "/") === 0 ? to.pathname.slice(table.length) : null;
    return to.pathname === table || rest === "/mano" || (rest !== null && /^\/mano\/tras\/\d+$/.test(rest));
  }

  // The kept copy of a page, as static/sw.js's kept() finds it (a /mano never opened: the next deal's form).
  function keptPage(url) {
    var to = new URL(url, window.location.href);
    var key = to.origin + to.pathname + to.search;
    var loose = { ignoreSearch: true, ignoreVary: true };
    return caches.open(PAGES).then(function (cache) {
      return cache.match(key, { ignoreVary: true }).then(function (hit) {
        return hit || cache.match(key, loose);
      }).then(function (hit) {
        if (hit || !/^\/t\/[^/]+\/mano$/.test(to.pathname)) return hit;
        return cache.match(to.origin + to.pathname + "/tras/0", loose);
      });
    });
  }

  // Go to a page: in place when offline allows it, else as the browser does.
  function navigate(url, fromHistory) {
    if (!inPlace(url)) {
      if (fromHistory) window.location.reload();
      else window.location.assign(url);
      return Promise.resolve();
    }
    return keptPage(url).then(function (response) {
      return response ? response.text() : null;
    }).then(function (html) {
      var doc = html ? new DOMParser().parseFromString(html, "text/html") : null;
      if (!doc || !doc.body || !doc.getElementById("contenido")) throw new Error("no copy");
      if (!fromHistory) {
        if (!history.state || !history.state.cartulina) history.replaceState({ cartulina: true }, "");
        history.pushState({ cartulina: true }, "", url);
      }
      shownAt = window.location.pathname + window.location.search;
      swap(doc);
      pageStart(true);
    }).catch(function () {
      if (fromHistory) window.location.reload();
      else window.location.assign(url);
    });
  }

  // The page's title, its body's attributes and contents: those of the copy (its scripts are the ones
  // running here; they are started again for it).
  function swap(doc) {
    document.title = doc.title;
    var body = document.body;
    Array.prototype.slice.call(body.attributes).forEach(function (a) { body.removeAttribute(a.name); });
    Array.prototype.forEach.call(doc.body.attributes, function (a) { body.setAttribute(a.name, a.value); });
    var nodes = Array.prototype.map.call(doc.body.childNodes, function (node) { return document.importNode(node, true); });
    body.textContent = "";
    nodes.forEach(function (node) { body.appendChild(node); });
    window.scrollTo(0, 0);
    var heading = document.querySelector("#contenido h1");
    if (heading) { // where a screen reader goes on a new page
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    inPlaceCount += 1;
    document.documentElement.setAttribute("data-pages-in-place", String(inPlaceCount));
  }
  var inPlaceCount = 0;

  // Back and Forward between pages put in place: the other page, in place again (or loaded).
  function onPopState() {
    var at = window.location.pathname + window.location.search;
    if (at === shownAt || !inPlaceCount) return; // a jump within the page
    shownAt = at;
    navigate(window.location.href, true);
  }

  // The table page with entries waiting: the turn as it will be once they are saved (who deals, who
  // may play: the server's own panels for the next deals, kept in <template data-ahead>), and the
  // number of the next hand.
  function showAhead() {
    if (!onTablePage()) return;
    var entries = state.entries || [];
    var turn = document.querySelector("[data-turn]");
    var shown = parseInt(document.body.getAttribute("data-next-deal"), 10);
    if (!turn || !entries.length || isNaN(shown)) return;
    var cycle = document.querySelectorAll("template[data-ahead]").length + 1;
    var k = dealsAhead() % cycle;
    if (k > 0) {
      var template = document.querySelector('template[data-ahead="' + k + '"]');
      if (!template) return;
      var fresh = template.content.querySelector("[data-turn]");
      if (fresh) turn.parentNode.replaceChild(document.importNode(fresh, true), turn);
      var quick = document.querySelector(".thumb-bar .quick");
      var nav = template.content.querySelector(".quick");
      if (quick && nav) quick.parentNode.replaceChild(document.importNode(nav, true), quick);
      turn = document.querySelector("[data-turn]");
    }
    var first = firstDeal();
    var next = (typeof first === "number" && first > shown ? first : shown) + pendingDeals();
    Array.prototype.forEach.call(turn.querySelectorAll("h2"), function (h) {
      h.textContent = h.textContent.replace(/\d+/, String(next));
    });
    turn.setAttribute("data-ahead-shown", String(k));
  }

  // A kept form opened for "Juega …" (?jugador=3): what the link chose, on the form (the server does
  // it for the form it sends; the phone's copy was made without it).
  function chooseFromLink() {
    var form = document.querySelector("form[data-offline]");
    if (!form || fixId() !== null || !window.location.search || !window.URLSearchParams) return;
    new URLSearchParams(window.location.search).forEach(function (value, name) {
      var options = form.querySelectorAll('input[name="' + name.replace(/["\\]/g, "") + '"]');
      Array.prototype.forEach.call(options, function (el) {
        if ((el.type === "radio" || el.type === "checkbox") && el.value === value && !el.disabled && !el.checked) {
          el.checked = true;
          el.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    });
  }

  // Is this page the phone's copy (opened again with no network, or the server too slow)? The
  // server's pages say when they were made (data-rendered-at, to the millisecond): a page made no
  // later than one already shown at this address is a copy; and the service worker says when it
  // served one (copyFromWorker). A copy says "sin conexión · datos de las HH:MM" and does not show
  // again the messages of when it was made ("Mano 2 anotada…").
  function isCopy() {
    var made = document.body.getAttribute("data-rendered-at") || "";
    var at = Date.parse(made);
    if (!made || isNaN(at)) return !navigator.onLine;
    var mark = "cartulina-shown-" + window.location.pathname + window.location.search;
    var seen = null;
    try {
      seen = localStorage.getItem(mark);
      if (!seen || Date.parse(seen) < at) localStorage.setItem(mark, made);
    } catch (e) { /* private mode */ }
    return !navigator.onLine || (!!seen && Date.parse(seen) >= at);
  }

  function copyFromWorker() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || !window.MessageChannel) return;
    var channel = new MessageChannel();
    channel.port1.onmessage = function (event) {
      if (event.data && event.data.copy) asCopy();
    };
    worker.postMessage({ type: "copy?" }, [channel.port2]);
  }

  // The worker showed this page's kept copy because the network was slow, and the server's answer came
  // after all (static/sw.js, LATE): open it, unless something was already typed or chosen here.
  function lateAnswers() {
    if (!("serviceWorker" in navigator)) return;
    var touched = false;
    document.addEventListener("input", function () { touched = true; }, true);
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type !== "late" || data.url !== window.location.href.split("#")[0] || touched) return;
      window.location.reload();
    });
  }

  function asCopy() {
    // the messages' list, in its role="status" wrapper (base.html): gone with it
    Array.prototype.forEach.call(document.querySelectorAll("#contenido > .flash, #contenido > [role=status] > .flash"), function (list) {
      var wrapper = list.parentNode;
      if (wrapper && wrapper.id !== "contenido" && wrapper.children.length === 1) wrapper.remove();
      else list.remove();
    });
    banner(true);
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
        // a hand or a pass: the form of the deal it can still take (after the entries before it)
        var forms = formsCycle();
        var takes = DEALS.indexOf(entry.form) >= 0 && forms.length;
        var fixUrl = null;
        if (entry.kind !== "closed" && entry.url && entry.url.split("?")[0] !== tablePath()) {
          fixUrl = (takes ? forms[dealsBefore(i) % forms.length] : entry.url.split("?")[0]) + "#corregir=" + entry.id;
        }
        // the deal it would take: the next one (a page older than the refusal knows no later deal than
        // the one taken), after the entries before it that can still be saved
        var next = parseInt(document.body.getAttribute("data-next-deal"), 10);
        if (typeof entry.taken === "number") next = Math.max(next, entry.taken + 1);
        refusals.render(item, entry, {
          fixUrl: fixUrl,
          deal: takes && !isNaN(next) ? next + dealsBefore(i) : null,
          discard: discard,
        });
      }
      list.appendChild(item);
    });
    box.appendChild(list);
    var help = document.createElement("p");
    help.className = "muted small";
    help.textContent = refusals.help(entries);
    box.appendChild(help);
  }

  // Descartar: the entry goes, the ones after it are sent again (judged by the same rules), and the
  // keeper is told what became of each (offline-refusals.js tell(); kept across the reload after a save).
  function discard(entry, button) {
    if (button) button.disabled = true;
    refusals.remember(refusals.snapshot(state.entries || [], entry));
    return queue.discard(entry).then(refresh).then(trySend).then(function (saved) {
      if (!(saved && onTablePage())) refusals.tell(state.entries); // else told by the page reloaded
    });
  }

  function refresh() {
    if (!state.token || !window.indexedDB) return Promise.resolve();
    return queue.list(state.token).then(function (entries) {
      var closed = onTablePage() && document.body.getAttribute("data-table-closed") === "true";
      if (closed && entries.some(function (e) { return e.kind !== "closed"; })) { // the table page says it
        return withStore("readwrite", function (store) {
          refusals.closeAll(entries).forEach(function (one) { store.put(one); });
        }).then(refresh);
      }
      state.entries = entries;
      document.body.setAttribute("data-pending", String(entries.length));
      showQueue();
      showAhead();
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
    var changed = [];
    try {
      changed = JSON.parse(sessionStorage.getItem("cartulina-changed") || "[]");
      sessionStorage.removeItem("cartulina-changed");
    } catch (e) { /* private mode */ }
    if (changed.length) {
      p.textContent += " " + msg("changed_hands", { list: changed.join(", ") });
      p.setAttribute("data-changed", changed.join(" "));
    }
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
      var placed = {}; // name -> the values this form could take
      entry.fields.forEach(function (pair) { (given[pair[0]] = given[pair[0]] || []).push(pair[1]); });
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.name === "csrf_token") return;
        var values = given[el.name];
        var took = placed[el.name] = placed[el.name] || [];
        if (el.type === "radio" || el.type === "checkbox") {
          var on = !!values && values.indexOf(el.value) >= 0;
          if (values || el.type === "checkbox") el.checked = on && !el.disabled;
          if (on && !el.disabled) took.push(el.value);
        } else if (values) {
          el.value = values[0];
          if (el.value === values[0]) took.push(values[0]);
        }
      });
      // the page's own scripts follow what was restored (as if tapped)
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit") return;
        var set = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value !== "";
        if (set) el.dispatchEvent(new Event("change", { bubbles: true }));
      });
      note(form, refusals.fixNote(entry, placeOf(form).deal, msg("fix_entry")));
      Object.keys(entry.problems || {}).forEach(function (name) {
        var box = document.getElementById("f-" + name);
        if (name === "general" || !box) return;
        box.classList.add("field-error");
        var p = document.createElement("p");
        p.className = "error-text";
        p.textContent = entry.problems[name].join(" ");
        box.appendChild(p);
      });
      // what this deal's form cannot take (a Jugador who deals this one, the tricks of a seat that
      // deals it): marked on the field with what was entered; not saved until chosen again there
      refusals.keep(form, entry, given, placed, labelOf);
    });
  }

  // The words of what was entered for a field that this form cannot take: its choice's label on the
  // form it was entered on is not here, so the value itself, or the names it carried there.
  function labelOf(form, name, values, kept) {
    return values.map(function (value) {
      var words = kept && kept[name] && kept[name][value] || null;
      Array.prototype.forEach.call(form.querySelectorAll('input[name="' + name.replace(/["\\]/g, "") + '"]'), function (el) {
        if (!words && el.value === value && el.labels && el.labels.length) words = el.labels[0].textContent.trim();
      });
      return words || value;
    }).join(", ");
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
        if (localStorage.getItem(mark) !== revision) urls = urls.concat(forms, others, ["/"]);
      } catch (e) { urls = urls.concat(forms, others, ["/"]); }
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

  // ------------------------------------------------------------- the engine on the phone
  // Downloaded only when the keeper taps "Preparar para jugar sin conexión" (the size is on the button)
  // or once the app is installed; kept by the service worker; started in a worker (/offline/motor.js)
  // when the network goes, so that it is warm when a payment is asked for.
  var ENGINE_MARK = "cartulina-engine";
  var ENGINE_WANTED = "cartulina-engine-wanted"; // a newer version whose download was cut off
  var engine = { worker: null, asked: 0, waiting: {}, started: 0, ready: false };

  function enginePrepared() {
    try { return localStorage.getItem(ENGINE_MARK); } catch (e) { return null; }
  }

  // Whether the phone computes with an older engine than the app's (its update was cut off).
  function engineOlder() {
    try {
      var wanted = localStorage.getItem(ENGINE_WANTED);
      return !!wanted && wanted !== localStorage.getItem(ENGINE_MARK);
    } catch (e) { return false; }
  }

  function showEngine(state) {
    var box = document.getElementById("motor");
    if (!box) return;
    var button = box.querySelector("[data-engine-prepare]");
    var said = box.querySelector("[data-engine-state]");
    if (button) button.hidden = state === "ready" || state === "preparing";
    if (said && state) {
      said.textContent = said.getAttribute("data-" + state) || "";
      said.hidden = false;
    }
    box.setAttribute("data-engine", state || "");
  }

  function prepareEngine() {
    var box = document.getElementById("motor");
    var version = box ? box.getAttribute("data-engine-version") : null;
    if (!("serviceWorker" in navigator) || !window.MessageChannel) return Promise.resolve(false);
    showEngine("preparing");
    return navigator.serviceWorker.ready.then(function (registration) {
      return new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          var answer = event.data || {};
          if (answer.kept) {
            try {
              localStorage.setItem(ENGINE_MARK, answer.kept);
              localStorage.removeItem(ENGINE_WANTED);
            } catch (e) { /* private mode */ }
            showEngine("ready");
            keepSession();
            resolve(true);
          } else {
            // cut off midway: the service worker kept the engine the phone had (answer.had), and the
            // hand form says it computes with that one until the new one is downloaded
            try {
              if (answer.had) localStorage.setItem(ENGINE_MARK, answer.had);
              if (answer.had && version) localStorage.setItem(ENGINE_WANTED, version);
            } catch (e) { /* private mode */ }
            showEngine("failed");
            resolve(false);
          }
        };
        registration.active.postMessage({ type: "keep-engine", version: version }, [channel.port2]);
      });
    });
  }

  // The worker, started once per page: {type: "start"} loads Pyodide and imports scorer.engine.
  function engineWorker() {
    if (engine.worker || !enginePrepared() || !window.Worker) return engine.worker;
    engine.worker = new Worker("/offline/motor.js", { type: "module" });
    engine.started += 1; // once per window: pages shown in place share it (tests count it)
    document.documentElement.setAttribute("data-engine-workers", String(engine.started));
    engine.worker.onmessage = function (event) {
      var answer = event.data || {};
      if (!answer.error) engine.ready = true; // warmed up: answers come at once from now on
      var done = engine.waiting[answer.id];
      delete engine.waiting[answer.id];
      if (done) done(answer);
    };
    // no engine to start (the phone lost its copy): every question is answered, the bar says so in words
    engine.worker.onerror = function () {
      engine.failed = true;
      var waiting = engine.waiting;
      engine.waiting = {};
      Object.keys(waiting).forEach(function (id) { waiting[id]({ error: "no engine" }); });
    };
    return engine.worker;
  }

  function askEngine(message) {
    var worker = engineWorker();
    if (!worker) return Promise.resolve({ error: "not prepared" });
    if (engine.failed) return Promise.resolve({ error: "no engine" });
    engine.asked += 1;
    var id = engine.asked;
    return new Promise(function (resolve) {
      engine.waiting[id] = resolve;
      message.id = id;
      worker.postMessage(message);
    });
  }

  // scorer.engine.settle(session) on the phone: resolves with {ledger} or {error}.
  window.cartulinaEngine = {
    prepared: function () { return !!enginePrepared(); },
    start: function () { return askEngine({ type: "start" }); },
    settle: function (session) { return askEngine({ type: "settle", session: session }); },
  };

  // The session as the server last sent it to this phone (kept for the engine, opted-in phones only).
  function keepSession() {
    if (!enginePrepared() || !state.token || !navigator.onLine || !onTablePage()) return;
    fetch("/api/tables/" + encodeURIComponent(state.token), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text) localStorage.setItem("cartulina-session-" + state.token, text);
      })
      .catch(function () { /* kept next time */ });
  }

  // What the hand on the form does, by the phone's engine, after the entries waiting before it.
  function offlinePreview(form) {
    var text = null;
    try { text = localStorage.getItem("cartulina-session-" + state.token); } catch (e) { /* private mode */ }
    if (!text || !enginePrepared() || form.getAttribute("data-offline") !== "hand") return null;
    var fixing = fixId();
    var queued = [];
    for (var i = 0; i < (state.entries || []).length; i++) {
      var entry = state.entries[i];
      if (entry.id === fixing) break;
      queued.push({ form: entry.form, fields: entry.fields });
    }
    var fields = {};
    fieldsOf(form).forEach(function (pair) { fields[pair[0]] = pair[1]; });
    var lances = Array.prototype.map.call(form.querySelectorAll('input[name="lance"]'), function (el) {
      return el.value;
    });
    var said = offlineWords(form).reader || {};
    return askEngine({ type: "preview", session: JSON.parse(text), queued: queued, fields: fields, lances: lances, words: said })
      .then(function (answer) { return answer.preview || (answer.error ? { unknown: true } : null); });
  }

  // The page's words for what the phone's engine says (data-offline-words: the form reader's messages,
  // each result's word), so an English page stays English offline.
  function offlineWords(form) {
    try { return JSON.parse(form.getAttribute("data-offline-words") || "{}") || {}; } catch (e) { return {}; }
  }

  function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n); }

  // The bar the payments go in: the hand form's own (#live), or one made for it (a form with none).
  function liveBar() {
    var bar = document.getElementById("live");
    var thumb = document.querySelector("body > .thumb-bar");
    if (bar || !thumb) return bar;
    bar = document.createElement("div");
    bar.id = "live";
    bar.className = "live";
    bar.setAttribute("role", "status");
    bar.setAttribute("aria-live", "polite");
    bar.hidden = true;
    thumb.classList.add("hand-bar");
    thumb.insertBefore(bar, thumb.firstChild);
    return bar;
  }

  function renderOffline(form, preview) {
    var bar = liveBar();
    if (!bar || !preview) return;
    bar.hidden = false;
    bar.setAttribute("data-offline-preview", "true");
    form.removeAttribute("data-offline-shown");
    if (preview.ok) {
      var entry = preview.entry;
      // what each person wins or pays: a pot (the plato, the pozo, the bote…) is nobody
      var nets = {};
      function person(who) { return Object.prototype.hasOwnProperty.call(preview.names, String(who)); }
      (entry.transfers || []).forEach(function (t) {
        if (person(t.from)) nets[t.from] = (nets[t.from] || 0) - t.amount;
        if (person(t.to)) nets[t.to] = (nets[t.to] || 0) + t.amount;
      });
      var moves = Object.keys(nets).filter(function (s) { return nets[s]; }).sort(function (a, b) {
        return nets[b] - nets[a];
      }).map(function (s) { return (preview.names[s] || s) + " " + signed(nets[s]); });
      if (!entry.transfers && entry.scores) { // tantos, no money (the juego de bandos): the scores after it
        moves = Object.keys(entry.scores).map(function (s) { return (preview.names[s] || s) + " " + entry.scores[s]; });
      }
      bar.classList.remove("bad");
      var result = (offlineWords(form).results || {})[entry.result] || String(entry.result || "").replace(/_/g, " ");
      bar.textContent = [msg("offline_hand", { n: preview.n }), result].concat(moves).join(" · ") +
        " · " + msg("offline_computed") + (engineOlder() ? " " + msg("offline_older_engine") : "");
      form.setAttribute("data-offline-shown", JSON.stringify({ n: preview.n, transfers: entry.transfers || [] }));
    } else if (preview.unknown) {
      bar.classList.remove("bad");
      bar.textContent = msg("offline_unknown");
    } else {
      var names = Object.keys(preview.problems || {});
      bar.classList.toggle("bad", names.length > 0);
      bar.textContent = names.length ? preview.problems[names[0]][0] : (preview.missing || [])[0] || "";
      bar.hidden = !bar.textContent;
    }
  }

  function showOfflinePreview(form) {
    var asked = offlinePreview(form);
    if (!asked) return false;
    var mine = (engine.previews = (engine.previews || 0) + 1);
    if (!engine.ready) calculating(); // the engine still warming up (seconds on a phone): said, not blank
    asked.then(function (preview) {
      if (mine !== engine.previews) return;
      if (preview) renderOffline(form, preview);
      else renderOffline(form, { unknown: true }); // no engine after all: the payments come with the network
    });
    return true;
  }

  function calculating() {
    var bar = liveBar();
    if (!bar) return;
    bar.hidden = false;
    bar.classList.remove("bad");
    bar.setAttribute("data-offline-preview", "calculating");
    bar.textContent = msg("offline_calculating") || "calculando…";
  }

  function shownOf(form) {
    try { return JSON.parse(form.getAttribute("data-offline-shown") || "null"); } catch (e) { return null; }
  }

  // The hand form offline: its payments as the keeper taps, by the phone's engine.
  function previewOffline() {
    var form = document.querySelector('form[data-offline="hand"]');
    if (!form || !enginePrepared()) return;
    function again() { if (!navigator.onLine || state.away) showOfflinePreview(form); }
    form.addEventListener("change", function () { window.setTimeout(again, 0); }); // after app.js's own
    form.addEventListener("input", again);
    if (!navigator.onLine) window.setTimeout(again, 0);
  }

  function setUpEngine() {
    var box = document.getElementById("motor");
    if (box) {
      var version = box.getAttribute("data-engine-version");
      var prepared = enginePrepared();
      if (prepared && prepared === version) showEngine("ready");
      else if (prepared && navigator.onLine) prepareEngine(); // a new version of the app: again, behind
      var button = box.querySelector("[data-engine-prepare]");
      if (button) button.addEventListener("click", prepareEngine);
      var standalone = window.matchMedia && window.matchMedia("(display-mode: standalone)").matches;
      if (!prepared && standalone && navigator.onLine) prepareEngine(); // installed: downloaded behind
    }
    if (enginePrepared()) {
      keepSession();
      previewOffline();
      if (offline() && enginePage()) window.cartulinaEngine.start();
    }
  }

  // Once per window: the engine starts when the network goes (or the server stops answering), so
  // its warm-up is done before the keeper opens the hand form.
  function watchEngine() {
    if (document.getElementById("motor")) {
      window.addEventListener("appinstalled", function () { if (!enginePrepared()) prepareEngine(); });
    }
    window.addEventListener("offline", function () {
      if (enginePrepared() && enginePage()) window.cartulinaEngine.start();
    });
  }

  // Not a secure context (plain http at a LAN address): no service worker, so no offline play and
  // no home-screen app. The keeper's table page says so where "Preparar…" would be (_secure_context.html).
  function tellInsecure() {
    var notice = document.querySelector("[data-insecure-notice]");
    if (!notice || window.isSecureContext) return;
    notice.hidden = false;
    var box = document.getElementById("motor");
    if (box) box.hidden = true;
  }

  function start() {
    tellInsecure();
    watchEngine();
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* no worker: online only */ });
    }
    document.addEventListener("submit", onSubmit);
    document.addEventListener("click", onClick);
    window.addEventListener("popstate", onPopState);
    window.addEventListener("offline", function () {
      banner(true);
      if (state.token) { state.away = true; retryNow(); }
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) state.submitting = state.through = false; // back from the page cache
    });
    lateAnswers();
    if (!state.token) {
      window.addEventListener("online", whenOnline);
    } else {
      window.addEventListener("online", retryNow);
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible" && waiting()) retryNow();
      });
      watchAnswers();
    }
    pageStart(false);
  }

  // What each page needs, on loading and when put in place (placed: the page is the phone's copy).
  function pageStart(placed) {
    state.submitting = state.through = state.confirmed = false;
    state.kept = false;
    if (placed) { // the page's other scripts, again for the page put in place
      if (window.cartulinaApp) window.cartulinaApp.init();
      if (window.cartulinaReach) window.cartulinaReach.init();
    }
    setUpEngine();
    if (placed) asCopy();
    else if (isCopy()) asCopy();
    else copyFromWorker();
    if (!state.token) return;
    refresh().then(function () {
      savedNote();
      refusals.tell(state.entries);
      fillForFix();
      chooseFromLink();
      if (!placed) retryNow();
    });
    if (navigator.onLine && onTablePage()) keepForms();
  }

  if (typeof document === "undefined") return;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
