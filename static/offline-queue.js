// Cartulina offline: the queue of entries saved with no network, in IndexedDB ("cartulina", store
// "queue", indexed by table). An entry is a form's fields exactly as the form had them, with an
// Idempotency-Key (key), the entry it follows (after), the deal it takes and the table's revision it
// was made against. Plain IndexedDB: a library (idb) would save some twenty lines here and cost a
// file more in the phone's shell (docs/offline.md).
import { follow } from "./offline-refusals.js";

var DB_NAME = "cartulina";
var STORE = "queue";

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

// the entries of a table, in the order they were written (ids only grow)
export function list(table) {
  return withStore("readonly", function (store) { return store.index("table").getAll(table); })
    .then(function (entries) { return entries.sort(function (a, b) { return a.id - b.id; }); });
}

export function add(entry) { return withStore("readwrite", function (store) { return store.add(entry); }); }

export function put(entry) { return withStore("readwrite", function (store) { return store.put(entry); }); }

export function get(id) { return withStore("readonly", function (store) { return store.get(id); }); }

export function remove(id) { return withStore("readwrite", function (store) { store.delete(id); }); }

// Several entries written in one transaction (a closed table's: each says so).
export function putAll(entries) {
  return withStore("readwrite", function (store) {
    entries.forEach(function (one) { store.put(one); });
  });
}

// the entries after it now follow what it followed, and take the deals one earlier (unless
// another phone took its deal: theirs stay on their deals, offline-refusals.js follow())
export function discard(entry) {
  return list(entry.table).then(function (entries) {
    return withStore("readwrite", function (store) {
      entries.forEach(function (other) {
        if (other.id === entry.id) return;
        if (other.after === entry.key) other.after = entry.after;
        follow(other, entry);
        store.put(other);
      });
      store.delete(entry.id);
    });
  });
}

// an entry placed again (corrected on the form of the deal it can take): the ones after it follow it
export function rechain(entry) {
  return list(entry.table).then(function (entries) {
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
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  var bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
}
