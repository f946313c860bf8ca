// Cartulina's engine on the phone: scorer.engine itself, the server's own Python files, run
// by Pyodide in this worker. Served as /offline/motor.js, the one answer of the app whose
// Content-Security-Policy allows WebAssembly ('wasm-unsafe-eval'). Nothing of the rules is here.
//
// Messages: {id, type: "start"} warms it up (Pyodide loaded, the engine imported);
// {id, type: "settle", session} answers {id, ledger} (or {id, error}): scorer.engine.settle(session);
// {id, type: "preview", session, queued, fields, lances, words} answers {id, preview}: what the hand on the
// form does after the entries waiting (scorer.hand_fields.offline_preview: the server's own reading).
import { loadPyodide } from "/offline/pyodide/pyodide.mjs";

let ready = null;
const phases = {}; // how long each step of the warm-up took, in ms (bench/pyodide.py reports them)

async function engine() {
  const begun = performance.now();
  // the engine's files are read (from the service worker's copy) while Pyodide compiles
  const files = fetch("/offline/motor.json").then((r) => r.json()).then((listing) => Promise.all(
    listing.files.filter((file) => file.url.startsWith("/offline/engine/")).map((file) =>
      fetch(file.url).then((r) => r.text()).then((text) => [file.url.slice("/offline/engine/".length), text])),
  ));
  const pyodide = await loadPyodide({ indexURL: "/offline/pyodide/" });
  phases.pyodide = performance.now() - begun;
  for (const [name, text] of await files) {
    const path = "/home/pyodide/scorer/" + name;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, text);
  }
  pyodide.runPython(
    "import json, sys\nsys.path.insert(0, '/home/pyodide')\n" +
    "from scorer.engine import settle\nfrom scorer.hand_fields import offline_preview",
  );
  phases.total = performance.now() - begun;
  phases.engine = phases.total - phases.pyodide;
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
    } else if (type === "preview") {
      pyodide.globals.set("asked_json", JSON.stringify(event.data));
      const text = pyodide.runPython(
        "asked = json.loads(asked_json)\n" +
        "json.dumps(offline_preview(asked['session'], asked['queued'], asked['fields'], asked['lances'], asked.get('words')))",
      );
      self.postMessage({ id, preview: JSON.parse(text), ms: performance.now() - started });
    } else {
      self.postMessage({ id, ready: true, ms: performance.now() - started, phases });
    }
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};
