// Cartulina offline: the pages the service worker keeps, and one page while offline.
// - A page that is the phone's copy (opened again with no network, or the server too slow) says
//   "sin conexión · datos de las HH:MM" and drops the messages of when it was made.
// - The table page asks the worker to keep its next forms (message "keep").
// - With no network, on a phone that keeps the engine, the table page and its new-hand forms are put
//   in place of each other from the service worker's kept copies (the very copies it would serve):
//   the window, and with it the engine's worker, stays. Online, and on any other page, nothing
//   changes: the browser navigates.
import { state, offline, tablePath, formsCycle } from "./offline-state.js";
import { banner } from "./offline-status.js";
import { enginePrepared } from "./offline-engine.js";

var PAGES = "cartulina-pages-1"; // static/sw.js's cache of pages
// The script tags the kept forms were made with (base.html): a copy made before the offline scripts
// were modules would load them as classic scripts and fail, so a new value here keeps each table's
// forms again on its next visit online, whatever its revision.
var KEPT_FOR = " modules-1";
var shownAt = window.location.pathname + window.location.search;
var inPlaceCount = 0;
var placed = null; // what each page needs once put in place (offline.js's pageStart)

// offline.js says what starts a page put in place (the same as on loading it).
export function whenPlaced(start) { placed = start; }

export function inPlace(url) {
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

function loadWhole(url, fromHistory) {
  if (fromHistory) window.location.reload();
  else window.location.assign(url);
}

// Go to a page: in place when offline allows it, else as the browser does.
export function navigate(url, fromHistory) {
  if (!inPlace(url)) {
    loadWhole(url, fromHistory);
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
    if (placed) placed(true);
  }).catch(function () { loadWhole(url, fromHistory); });
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

// Back and Forward between pages put in place: the other page, in place again (or loaded).
export function onPopState() {
  var at = window.location.pathname + window.location.search;
  if (at === shownAt || !inPlaceCount) return; // a jump within the page
  shownAt = at;
  navigate(window.location.href, true);
}

// Is this page the phone's copy (opened again with no network, or the server too slow)? The
// server's pages say when they were made (data-rendered-at, to the millisecond): a page made no
// later than one already shown at this address is a copy; and the service worker says when it
// served one (copyFromWorker). A copy says "sin conexión · datos de las HH:MM" and does not show
// again the messages of when it was made ("Mano 2 anotada…").
export function isCopy() {
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

export function copyFromWorker() {
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
export function lateAnswers() {
  if (!("serviceWorker" in navigator)) return;
  var touched = false;
  document.addEventListener("input", function () { touched = true; }, true);
  navigator.serviceWorker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type !== "late" || data.url !== window.location.href.split("#")[0] || touched) return;
    window.location.reload();
  });
}

export function asCopy() {
  // the messages' list, in its role="status" wrapper (base.html): gone with it
  Array.prototype.forEach.call(document.querySelectorAll("#contenido > .flash, #contenido > [role=status] > .flash"), function (list) {
    var wrapper = list.parentNode;
    if (wrapper && wrapper.id !== "contenido" && wrapper.children.length === 1) wrapper.remove();
    else list.remove();
  });
  banner(true);
}

// The pages to keep: this one when it was loaded before the worker was there to keep it, and once
// per change of the table its next forms, the other pages it names and the home page.
function pagesToKeep(forms, revision, mark) {
  var urls = navigator.serviceWorker.controller ? [] : [window.location.pathname + window.location.search];
  var others = (document.body.getAttribute("data-offline-keep") || "").split(" ").filter(Boolean);
  if (forms.length && revision !== null) {
    try {
      localStorage.setItem("cartulina-forms-" + state.token, JSON.stringify(forms));
      if (localStorage.getItem(mark) !== revision + KEPT_FOR) urls = urls.concat(forms, others, ["/"]);
    } catch (e) { urls = urls.concat(forms, others, ["/"]); }
  }
  return urls;
}

// Keep this table's next forms (and this page) for offline: once per change of the table.
export function keepForms() {
  if (!("serviceWorker" in navigator) || state.kept) return;
  state.kept = true;
  var revision = document.body.getAttribute("data-table-revision");
  var mark = "cartulina-kept-" + state.token;
  var urls = pagesToKeep(formsCycle(), revision, mark);
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
        try { if (revision !== null) localStorage.setItem(mark, revision + KEPT_FOR); } catch (e) { /* private mode */ }
      }
      document.body.setAttribute("data-offline-ready", "true");
    };
    worker.postMessage({ type: "keep", urls: urls }, [channel.port2]);
  });
}
