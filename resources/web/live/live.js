// The live page's model runner (issue 57, prototype; docs/live-page.md): the model file's own
// encode and step, exported to ONNX (python/alignscope/onnx_export.py), run by ONNX Runtime Web's
// WebAssembly backend on one thread. No arithmetic of the model is written here: this file moves
// tensors between the two graphs; the search rules are search.js's.
//
// Everything arrives as bytes in <script> files beside the page (window.ALIGNSCOPE_FILES: name ->
// base64, or name + ".gz" -> gzipped base64): a page opened from file:// may not fetch, and its CSP
// allows 'wasm-unsafe-eval' and nothing else that a runtime would need.
(function () {
  "use strict";

  function base64Bytes(text) {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // What the page lacks: English for tests and consoles, the page catalogue's key and values for
  // the page to say it in its language (resources/web/messages/)
  function missing(english, key, args) { return Object.assign(new Error(english), {key: key, args: args || {}}); }

  // a file's bytes; its base64 text is dropped once read (the weights' text is 20 MB of the heap)
  async function file(name) {
    const files = window.ALIGNSCOPE_FILES || {};
    for (const [key, unzip] of [[name + ".gz", true], [name, false]]) {
      if (files[key] === undefined) continue;
      const bytes = base64Bytes(files[key]);
      delete files[key];
      return unzip ? gunzip(bytes) : bytes;
    }
    throw missing("the page carries no file '" + name + "' (its <script> beside the page is missing)", "live_file_missing", {name: name});
  }

  // Bytes let go at once, not when the collector finds them unreferenced (a library may keep a
  // reference it never reads again): the buffer is transferred to a clone nothing holds
  function release(bytes) {
    if (!bytes || !bytes.buffer || typeof structuredClone !== "function") return;
    try { structuredClone(bytes.buffer, {transfer: [bytes.buffer]}); } catch (e) { /* already detached */ }
  }

  // float16 bits -> float32, exactly (every float16 is a float32): the weights a float16 model file
  // stores, widened as the C++ loader widens them
  let halfTable = null;
  function widen(bytes) {
    if (!halfTable) {
      halfTable = new Float32Array(65536);
      for (let h = 0; h < 65536; h++) {
        const sign = h & 0x8000 ? -1 : 1;
        const exponent = (h >> 10) & 0x1f;
        const fraction = h & 0x3ff;
        halfTable[h] = exponent === 0 ? sign * fraction * Math.pow(2, -24)
          : exponent === 31 ? (fraction ? NaN : sign * Infinity)
          : sign * (1024 + fraction) * Math.pow(2, exponent - 25);
      }
    }
    const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    const out = new Float32Array(halves.length);
    for (let i = 0; i < halves.length; i++) out[i] = halfTable[halves[i]];
    return new Uint8Array(out.buffer);
  }

  // A graph's session options: its float16 weights (onnx_export's .weights file), widened, as the
  // float32 external data the graph names
  async function sessionOptions(graph) {
    const options = {executionProviders: ["wasm"], graphOptimizationLevel: "all"};
    if (graph.weights_float16) {
      options.externalData = [{path: graph.weights_float16, data: widen(await file(graph.weights_float16))}];
    }
    return options;
  }

  class LiveModel {
    constructor(ort, info, encode, step) {
      this.ort = ort;
      this.info = info;
      this.encodeSession = encode;
      this.stepSession = step;
      const specials = info.tgt_specials;
      this.eos = specials.eos === undefined ? -1 : specials.eos;
      this.startId = Math.max(0, specials.bos === undefined ? -1 : specials.bos);
    }

    ids(values, dims) {
      return new this.ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), dims);
    }

    // encode one sentence (its token ids, </s> included where the model's sources have one)
    async encode(srcIds) {
      const out = await this.encodeSession.run({src: this.ids(srcIds, [1, srcIds.length]),
                                                src_len: this.ids([srcIds.length], [1])});
      return {enc: out.enc, state: out.state, mask: out.mask, keys: out.keys, length: srcIds.length};
    }

    // the step graph on a batch of rows (one per y_prev), its outputs by the format's names
    async run(yPrevs, state, encoded) {
      const feeds = {y_prev: this.ids(yPrevs, [yPrevs.length]), state: state, enc: encoded.enc, keys: encoded.keys,
                     mask: encoded.mask};
      // only the inputs the graph kept: a step that never reads one (no attention: enc) has lost it
      const out = await this.stepSession.run(Object.fromEntries(this.stepSession.inputNames.map((n) => [n, feeds[n]])));
      const r = {};
      this.info.step.outputs.forEach((name, i) => { r[name] = out[this.info.step.output_names[i]]; });
      return r;
    }

    // one decoder step of one sentence: {logProbs, alpha (with the model's own padding column where
    // it has one), state, and the extras the model returns (context, energies, query, readout)}
    async step(yPrev, state, encoded) {
      const r = await this.run([yPrev], state, encoded);
      const alpha = Array.from(r.alpha.data);
      if (r.alpha_padding) alpha.push(r.alpha_padding.data[0]);
      return {logProbs: r.log_probs.data, alpha: alpha, state: r.state, outputs: r};
    }

    // the rows `rows` of a tensor (first axis), as beam search reorders its hypotheses
    rowsOf(tensor, rows) {
      const width = tensor.data.length / tensor.dims[0];
      const out = new tensor.data.constructor(rows.length * width);
      rows.forEach((row, i) => out.set(tensor.data.subarray(row * width, (row + 1) * width), i * width));
      return new this.ort.Tensor(tensor.type, out, [rows.length].concat(tensor.dims.slice(1)));
    }

    async beam(srcIds, width, options) { return window.AlignScopeSearch.beam(this, srcIds, width, options); }
    async decode(srcIds, options) { return window.AlignScopeSearch.decode(this, srcIds, options); }

    // greedy decoding to </s> or the cap, every step's numbers kept, with timings (ms)
    async greedy(srcIds, maxLength) {
      return this.decode(srcIds, {maxLength: maxLength});
    }

    // teacher-forced decoding along `targetIds` (the target's tokens, then </s> where the model has
    // one, as core/decoding forces them): each step reads the forced token before it
    async forced(srcIds, targetIds) {
      return this.decode(srcIds, {forced: targetIds});
    }

    // what-if (DecodingSession::back then force, then runToEnd): `prefix` (the tokens kept, the
    // replaced one last) emitted as given, then the best token until </s> or the length cap
    async whatIf(srcIds, prefix, maxLength) {
      return this.decode(srcIds, {prefix: prefix, maxLength: maxLength});
    }

  }

  // Text -> ids as alignscope-cli makes them (tokenizer.js); throws the CLI's refusal as an Error
  LiveModel.prototype.sourceIds = function (text) {
    const m = this.info.metadata;
    return window.AlignScopeTokenizer.sourceIds(this.tokenizers.src, text, m.source_eos !== false, m.max_source_length || 0);
  };
  LiveModel.prototype.targetIds = function (text) {
    return window.AlignScopeTokenizer.targetIds(this.tokenizers.tgt, text);
  };

  // Creates both sessions; `progress` (optional) hears what is being done.
  async function load(progress) {
    const say = progress || function () {};
    const ort = window.ort;
    if (!ort) throw missing("ONNX Runtime Web is not loaded (its <script> beside the page is missing)", "live_no_runtime");
    const t0 = performance.now();
    ort.env.wasm.numThreads = 1;  // no workers, no SharedArrayBuffer: works without cross-origin isolation
    ort.env.wasm.proxy = false;
    say("runtime");
    ort.env.wasm.wasmBinary = await file("ort-wasm-simd-threaded.wasm");
    const info = JSON.parse(new TextDecoder().decode(await file("model.json")));
    say("tokenizer");
    const tTokenizer = performance.now();
    const tokenizers = {}, processors = {};
    for (const side of ["src", "tgt"]) {
      const d = info[side + "_tokenizer"];
      let processor = null;
      if (d.kind === "sentencepiece") {  // SentencePiece itself, the model file's .model bytes in memory
        if (!window.AlignScopeSentencePiece) {
          throw missing("SentencePiece is not loaded (its <script> beside the page is missing)", "live_no_sentencepiece");
        }
        processor = processors[d.model_file];  // one processor for a vocabulary both sides share
        if (!processor) {
          processor = processors[d.model_file] = new window.AlignScopeSentencePiece.SentencePieceProcessor();
          await processor._loadModel(await file(d.model_file));
        }
      }
      tokenizers[side] = new window.AlignScopeTokenizer.Tokenizer(d, info[side + "_vocab"], info[side + "_specials"], processor);
    }
    const tokenizerMs = performance.now() - tTokenizer;
    const encodeBytes = await file(info.encode.file);
    const stepBytes = await file(info.step.file);
    const encodeOptions = await sessionOptions(info.encode);
    const stepOptions = await sessionOptions(info.step);
    const tBytes = performance.now() - t0;
    say("encoder");
    const encode = await ort.InferenceSession.create(encodeBytes, encodeOptions);
    say("decoder");
    const step = await ort.InferenceSession.create(stepBytes, stepOptions);
    // The sessions hold their own copies: the graphs' bytes, the widened weights and the runtime's
    // WebAssembly (compiled, and Emscripten keeps the bytes it was given) let go (docs/live-page.md)
    for (const options of [encodeOptions, stepOptions]) for (const e of options.externalData || []) release(e.data);
    release(encodeBytes);
    release(stepBytes);
    release(ort.env.wasm.wasmBinary);
    const model = new LiveModel(ort, info, encode, step);
    model.tokenizers = tokenizers;
    const tSessions = performance.now() - t0 - tBytes;
    // One step of a one-token source while the page still says "loading": the first run of a
    // session prepares its kernels (250 ms of the first sentence's 400, en-fr-subword)
    say("warm-up");
    await model.greedy([info.src_specials.eos === undefined ? 0 : info.src_specials.eos], 1);
    model.loadMs = {bytes: tBytes, sessions: tSessions, warmup: performance.now() - t0 - tBytes - tSessions,
                    total: performance.now() - t0, tokenizer: tokenizerMs};
    say("ready");
    return model;
  }

  window.AlignScopeLive = {load: load, LiveModel: LiveModel};
})();
