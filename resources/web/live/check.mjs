// Runs live.js under Node with ONNX Runtime Web (the same runner and WebAssembly the page uses), for
// the exporter's check that the ONNX graphs give the model file's numbers before a page is written.
//   node check.mjs RUNTIME_DIR FILES_DIR < request.json > answer.json
// request: {"sources": [[ids...], ...], "max_length": n, "texts": [...]}; answer: live.js's greedy()
// per source, and per text (if any) the page tokenizer's source ids or its refusal.
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
// the page's tokenizer too (load() builds it): SentencePiece's ES module as fetched beside the runtime
const spm = path.resolve(runtime, "..", "sentencepiece-js", "index.js");
if (!fs.existsSync(spm)) {
  console.error("live check: " + spm + " is missing (bash scripts/fetch_onnxruntime_web.sh fetches it)");
  process.exit(1);
}
window.AlignScopeSentencePiece = await import(spm);
const here = path.dirname(fileURLToPath(import.meta.url));
await import(path.join(here, "tokenizer.js"));
await import(path.join(here, "search.js"));
await import(path.join(here, "live.js"));
try {
  const request = JSON.parse(fs.readFileSync(0, "utf-8"));
  const model = await AlignScopeLive.load();
  const answers = [];
  for (const ids of request.sources) answers.push(await model.greedy(ids, request.max_length || 0));
  const ids = (request.texts || []).map((t) => { try { return model.sourceIds(t); } catch (e) { return {error: e.message}; } });
  process.stdout.write(JSON.stringify({load_ms: model.loadMs, answers: answers, ids: ids}));
} catch (e) {
  console.error("live check: " + (e && e.message || e));  // the line the exporter reports
  process.exit(1);
}
