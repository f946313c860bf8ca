// Cartulina's service worker, served as /sw.js so its scope is the whole app.
// - The app's shell (styles, scripts, icons, manifest) is kept at install; served from the phone at
//   once and refreshed behind.
// - Every page the phone opens is kept: network first, the kept copy when the network fails (or
//   hangs), so a table opened in a basement shows its last known state (static/offline.js marks it
//   "sin conexión · datos de las HH:MM").
// - The table page asks it (message "keep") to keep the new-hand forms of the next deals, so hands
//   can be entered offline; static/offline.js queues what is saved on them.
// Nothing here knows the game: it caches and serves what the server made.
"use strict";

var SHELL = "cartulina-shell-12";
var PAGES = "cartulina-pages-1";
var SHELL_FILES = [
  "/static/app.css",
  "/static/reach.css",
  "/static/i18n.js",
  "/static/app.js",
  // static/offline.js and the modules it imports: all of them, or offline.js fails to load offline
  "/static/offline.js",
  "/static/offline-state.js",
  "/static/offline-status.js",
  "/static/offline-refusals.js",
  "/static/offline-fixing.js",
  "/static/offline-queue.js",
  "/static/offline-send.js",
  "/static/offline-sync.js",
  "/static/offline-list.js",
  "/static/offline-forms.js",
  "/static/offline-fields.js",
  "/static/offline-pages.js",
  "/static/offline-engine.js",
  "/static/offline-preview.js",
  "/static/reach.js",
  "/static/manifest.webmanifest",
  "/static/favicon.svg",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
];
// The engine for payments offline: Pyodide and scorer.engine's files, kept only once the
// keeper asked for them (message "keep-engine"); a phone that never asked downloads none of them.
// Each download goes into a cache of its own, "cartulina-engine-<version>-<time>", its motor.json
// stored last: a cache with motor.json is complete. The files are served from the newest complete
// one, and the older ones are deleted only once a newer one is complete, so an update cut off
// midway leaves the phone the engine it had ("cartulina-engine", of older workers, counts as oldest).
var ENGINE = "cartulina-engine";
var MOTOR = "/offline/motor.json";
var NETWORK_WAIT_MS = 6000; // a page with a kept copy waits this long for the network
var NOT_KEPT = /^\/(api\/|static\/)|\.(pdf|json|csv)$|\/estado$/;

self.addEventListener("install", function (event) {
  var home = keptRequest("/"); // the start_url, for an installed app
  event.waitUntil(
    caches.open(SHELL)
      .then(function (cache) { return cache.addAll(SHELL_FILES); })
      .then(function () { return fetch(home).then(function (r) { return keep(home, r); }, function () {}); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (k) {
          return k.indexOf("cartulina-shell-") === 0 && k !== SHELL;
        }).map(function (k) { return caches.delete(k); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// A page fetched only to be kept says so: the server then leaves the flashed messages (the save message
// after a POST) to the page the person is opening at the same moment (scorer/web/tables/offline.py).
function keptRequest(href) {
  return new Request(href, { credentials: "same-origin", headers: { "X-Cartulina-Keep": "1" } });
}

function keepable(response) {
  var type = response.headers.get("Content-Type") || "";
  return response.ok && !response.redirected && response.type === "basic" && type.indexOf("text/html") === 0;
}

function keep(request, response) {
  if (!keepable(response)) return Promise.resolve(false);
  var copy = response.clone();
  return caches.open(PAGES).then(function (cache) { return cache.put(request, copy); }).then(function () {
    return true;
  });
}

// The kept copy of a page; for a table's new-hand form (/t/<token>/mano) never opened here, the one
// the table page had kept for the next deal (/t/<token>/mano/tras/0).
function kept(request) {
  var options = { ignoreSearch: true, ignoreVary: true };
  return caches.open(PAGES).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || cache.match(request, options);
    }).then(function (hit) {
      var url = new URL(request.url);
      if (hit || !/^\/t\/[^/]+\/mano$/.test(url.pathname)) return hit;
      return cache.match(url.origin + url.pathname + "/tras/0", options);
    });
  });
}

function offlinePage() {
  var html = '<!doctype html><html lang="es"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Sin conexión · Cartulina</title><link rel="stylesheet" href="/static/app.css"></head>' +
    '<body><main id="contenido"><h1>Sin conexión</h1>' +
    "<p>Esta página no se abrió antes en este teléfono, así que no hay copia guardada.</p>" +
    '<p><a class="button" href="/">Volver al inicio</a></p></main></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// The pages (clients) this worker answered with a kept copy: static/offline.js asks ("copy?") and
// then says "sin conexión · datos de las HH:MM" and hides the copy's old messages.
var COPIES = {};

// A page whose network answer came after its kept copy had been shown (a slow network, not a dead
// one): kept here a short while, one use, so that the next opening of that address (static/offline.js
// reloads once the server answers) shows it, with the message the server flashed for it ("Mano 3
// anotada…"), which no later request would show again.
var LATE = {};
var LATE_MS = 30000;

function late(url) {
  var hit = LATE[url];
  delete LATE[url];
  return hit && Date.now() - hit.at < LATE_MS ? hit.response : null;
}

// Pages: network first; the kept copy when the network fails, or when it takes too long.
function page(event) {
  var request = event.request;
  var waiting = late(request.url);
  if (waiting) return Promise.resolve(waiting);
  var network = fetch(request).then(function (response) {
    event.waitUntil(keep(request, response));
    return response;
  });
  function served(copy) {
    var client = event.resultingClientId || event.clientId;
    if (client) COPIES[client] = Date.now();
    return copy;
  }
  return kept(request).then(function (copy) {
    if (!copy) return network.catch(offlinePage);
    var slow = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT_MS, copy); });
    return Promise.race([network, slow]).then(function (response) {
      if (response !== copy) return response;
      var client = event.resultingClientId || event.clientId;
      event.waitUntil(network.then(function (fresh) {
        if (!keepable(fresh)) return;
        LATE[request.url] = { response: fresh, at: Date.now() };
        return client && self.clients.get(client).then(function (shown) {
          if (shown) shown.postMessage({ type: "late", url: request.url });
        });
      }, function () {}));
      return served(copy);
    }, function () { return served(copy); });
  });
}

// The shell: the kept copy at once, refreshed from the network for the next time.
function shell(event) {
  var request = event.request;
  return caches.open(SHELL).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) return cache.put(request, response.clone()).then(function () { return response; });
        return response;
      });
      if (hit) {
        event.waitUntil(fresh.catch(function () {}));
        return hit;
      }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/offline/") === 0) {
    event.respondWith(engineFile(request));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(shell(event));
  } else if (request.mode === "navigate" && !NOT_KEPT.test(url.pathname)) {
    event.respondWith(page(event));
  }
});

// The engine's files: the kept copy when the keeper has it, else the network (nothing kept).
function engineFile(request) {
  return newestEngine().then(function (name) {
    if (!name) return fetch(request);
    return caches.open(name).then(function (cache) {
      return cache.match(request, { ignoreVary: true }).then(function (hit) { return hit || fetch(request); });
    });
  });
}

// The engine caches, newest first (by the time in their name; the old single cache last).
function engineCaches() {
  return caches.keys().then(function (keys) {
    var mine = keys.filter(function (k) { return k === ENGINE || k.indexOf(ENGINE + "-") === 0; });
    function time(k) { return k === ENGINE ? 0 : Number(k.slice(k.lastIndexOf("-") + 1)) || 0; }
    return mine.sort(function (a, b) { return time(b) - time(a); });
  });
}

// The newest complete engine cache's name (its motor.json is there), or null.
function newestEngine() {
  return engineCaches().then(function (names) {
    function first(i) {
      if (i >= names.length) return null;
      return caches.open(names[i]).then(function (cache) { return cache.match(MOTOR); }).then(function (hit) {
        return hit ? names[i] : first(i + 1);
      });
    }
    return first(0);
  });
}

function listingOf(name) {
  return caches.open(name).then(function (cache) { return cache.match(MOTOR); }).then(function (hit) {
    return hit ? hit.json() : null;
  });
}

// {type: "keep-engine"}: download the engine's files (the list of /offline/motor.json) into a new
// cache beside the one the phone has; motor.json last; then the older caches go. Answers {kept:
// version, bytes}, or {failed: reason, had: the version the phone still has, or null}.
function keepEngine() {
  var made = null;
  return fetch(MOTOR, { cache: "no-store" }).then(function (r) {
    if (!r.ok) throw new Error("motor.json " + r.status);
    return r.clone().json().then(function (listing) {
      return newestEngine().then(function (name) { return name && listingOf(name); }).then(function (had) {
        if (had && had.version === listing.version) return had; // this version is complete already
        made = ENGINE + "-" + String(listing.version).replace(/[^\w.]/g, "_") + "-" + Date.now();
        var urls = ["/offline/motor.js"].concat(listing.files.map(function (f) { return f.url; }));
        return caches.open(made).then(function (cache) {
          return Promise.all(urls.map(function (url) {
            return fetch(url, { cache: "no-store" }).then(function (response) {
              if (!response.ok) throw new Error(url + " " + response.status);
              return cache.put(url, response);
            });
          })).then(function () { return cache.put(MOTOR, r); }); // last: the cache is complete
        }).then(function () { return listing; });
      });
    });
  }).then(function (listing) {
    var name = made;
    return engineCaches().then(function (names) {
      return Promise.all(names.filter(function (k) { return name && k !== name; }).map(function (k) {
        return caches.delete(k);
      }));
    }).then(function () { return { kept: listing.version, bytes: listing.bytes }; });
  }, function (error) {
    var cut = made ? caches.delete(made) : Promise.resolve(); // only the download that did not finish
    return cut.then(newestEngine).then(function (name) { return name && listingOf(name); }).then(function (had) {
      return { failed: String(error), had: had ? had.version : null };
    });
  });
}

// Two pages asking at once (a reload, another tab) download one after the other: the second finds
// the version complete; never two downloads deleting each other's cache.
var keeping = Promise.resolve();
function oneAtATime(work) {
  var run = keeping.then(work, work);
  keeping = run.catch(function () {});
  return run;
}

// {type: "keep", urls: [...]}: fetch and keep these pages now (the forms of the next deals).
// Answers {kept: n} on the message's port once they are stored.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var port = event.ports && event.ports[0];
  if (data.type === "copy?") { // {copy: true} when this page was answered with its kept copy
    var source = event.source && event.source.id;
    if (port) port.postMessage({ copy: !!(source && COPIES[source]) });
    if (source) delete COPIES[source];
    return;
  }
  if (data.type === "keep-engine") {
    var done = oneAtATime(keepEngine).catch(function (error) {
      return { failed: String(error), had: null };
    }).then(function (answer) { if (port) port.postMessage(answer); });
    event.waitUntil(done);
    return;
  }
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  var work = Promise.all(data.urls.map(function (path) {
    var url = new URL(path, self.location.origin);
    if (url.origin !== self.location.origin || NOT_KEPT.test(url.pathname)) return false;
    var request = keptRequest(url.href);
    return fetch(request).then(function (response) { return keep(request, response); }, function () { return false; });
  })).then(function (done) {
    var count = done.filter(Boolean).length;
    if (port) port.postMessage({ kept: count, asked: data.urls.length });
  });
  event.waitUntil(work);
});
