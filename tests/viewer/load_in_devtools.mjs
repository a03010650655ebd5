// load_in_devtools.mjs TRACE.json: loads a trace with the DevTools trace
// engine (the model behind Chromium's Performance panel) and prints, as
// JSON, what that panel would draw: the threads in the panel's order with
// their names and complete events, and every flow arrow the engine bound
// (each as the events it joins). test_viewer.py checks this against zeil.
import fs from 'node:fs';
import * as Trace from '@paulirish/trace_engine';

// The engine runs in a browser; in Node it needs DOMRect (its README says so)
// and, on Node 18 (Debian 12), Array.prototype.toSorted.
globalThis.DOMRect ??= class DOMRect {
  constructor(x = 0, y = 0, width = 0, height = 0) {
    Object.assign(this, {x, y, width, height});
  }
};
if (!Array.prototype.toSorted) {
  Object.defineProperty(Array.prototype, 'toSorted', {
    value(compare) { return [...this].sort(compare); },
  });
}

const events = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const data = model.parsedTrace().data;

const describe = e => ({pid: e.pid, tid: e.tid, ts: e.ts, ph: e.ph, cat: e.cat, name: e.name});
const threads = [];
for (const [pid, process] of data.Renderer.processes) {
  for (const [tid, thread] of process.threads) {
    threads.push({pid, tid, name: thread.name ?? null,
                  spans: thread.entries.filter(e => e.ph === 'X').map(e => e.name)});
  }
}
const flows = data.Flows.flows.map(flow => flow.map(describe));
process.stdout.write(JSON.stringify({threads, flows}));
