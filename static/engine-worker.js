// Cartulina's engine on the phone (issue 24): scorer.engine itself, the server's own Python files, run
// by Pyodide in this worker. Served as /offline/motor.js, the one answer of the app whose
// Content-Security-Policy allows WebAssembly ('wasm-unsafe-eval'). Nothing of the rules is here.
//
// Messages: {id, type: "start"} warms it up (Pyodide loaded, the engine imported);
// {id, type: "settle", session} answers {id, ledger} (or {id, error}): scorer.engine.settle(session).
import { loadPyodide } from "/offline/pyodide/pyodide.mjs";

let ready = null;

async function engine() {
  const listing = await (await fetch("/offline/motor.json")).json();
  const pyodide = await loadPyodide({ indexURL: "/offline/pyodide/" });
  for (const file of listing.files) {
    if (!file.url.startsWith("/offline/engine/")) continue;
    const path = "/home/pyodide/scorer/" + file.url.slice("/offline/engine/".length);
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, await (await fetch(file.url)).text());
  }
  pyodide.runPython("import json, sys\nsys.path.insert(0, '/home/pyodide')\nfrom scorer.engine import settle");
  return pyodide;
}

function start() {
  if (ready === null) ready = engine().catch((error) => { ready = null; throw error; });
  return ready;
}

self.onmessage = async (event) => {
  const { id, type, session } = event.data || {};
  const started = performance.now();
  try {
    const pyodide = await start();
    if (type === "settle") {
      pyodide.globals.set("session_json", JSON.stringify(session));
      const text = pyodide.runPython("json.dumps(settle(json.loads(session_json)))");
      self.postMessage({ id, ledger: JSON.parse(text), ms: performance.now() - started });
    } else {
      self.postMessage({ id, ready: true, ms: performance.now() - started });
    }
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};
