// Runs live.js under Node with ONNX Runtime Web (the same runner and WebAssembly the page uses), for
// the exporter's check that the ONNX graphs give the model file's numbers before a page is written.
//   node check.mjs RUNTIME_DIR FILES_DIR < request.json > answer.json
// request: {"sources": [[ids...], ...], "max_length": n}; answer: live.js's greedy() per source.
import fs from "node:fs";
import path from "node:path";
import {fileURLToPath} from "node:url";

const [runtime, files] = process.argv.slice(2);
globalThis.window = globalThis;
globalThis.ort = await import(path.resolve(runtime, "ort.wasm.bundle.min.mjs"));
ort.env.logLevel = "error";
const bytes = {};
for (const name of fs.readdirSync(files)) bytes[name] = fs.readFileSync(path.join(files, name)).toString("base64");
bytes["ort-wasm-simd-threaded.wasm"] = fs.readFileSync(path.join(runtime, "ort-wasm-simd-threaded.wasm")).toString("base64");
window.ALIGNSCOPE_FILES = bytes;
await import(path.join(path.dirname(fileURLToPath(import.meta.url)), "live.js"));
try {
  const request = JSON.parse(fs.readFileSync(0, "utf-8"));
  const model = await AlignScopeLive.load();
  const answers = [];
  for (const ids of request.sources) answers.push(await model.greedy(ids, request.max_length || 0));
  process.stdout.write(JSON.stringify({load_ms: model.loadMs, answers: answers}));
} catch (e) {
  console.error("live check: " + (e && e.message || e));  // the line the exporter reports
  process.exit(1);
}
