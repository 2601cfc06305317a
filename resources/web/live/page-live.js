// The page's live mode (issue 57; docs/live-page.md). Where alignscope.live_page put the runtime
// and a model's scripts beside a page (export --format html --live, export-lesson --live,
// alignscope.show(..., live=True)), the page drawn from its precomputed data wakes up: the model
// loads behind it with a progress line, then a Source box decodes a typed sentence (Enter), a
// Target box forces one, a beam width searches, and a candidate clicked (or its number key)
// replaces that token and decodes on (what-if). The panels are page.js's, redrawn from the live
// numbers: liveData() makes the page data (docs/page-format.md) that ui/PageData.cpp and
// python/alignscope/page_data.py make from a decoding (docs/architecture.md lists the copies).
// Typed text only ever reaches the page as textContent.
(function () {
  "use strict";
  const TOP_K = 10;  // candidates a step, as the exports record them (SessionOptions::topK)
  const PADDING_COLUMN = "<padding>";  // Model::kPaddingColumn
  const BEAM_WIDTHS = [1, 2, 3, 4, 5, 8, 10];

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The page's words (page.js's msg and msgParts over the page's catalogue, resources/web/messages/);
  // an error that names its catalogue key (tokenizer.js, live.js) said in the page's language
  function msg(key, args) { return window.AlignScopePage.msg(key, args); }
  function said(e) { return e && e.key ? msg(e.key, e.args) : String(e && e.message || e); }
  // a template's parts as nodes: text, or [tag, text]
  function parts(parent, list) {
    for (const p of list) parent.appendChild(Array.isArray(p) ? el(p[0], p[2] ? {"class": p[2]} : null, p[1]) : document.createTextNode(p));
    return parent;
  }
  function norm(v) { return Math.sqrt(v.reduce((a, x) => a + x * x, 0)); }
  // PageData's rounding (4 decimals, halves away from zero); a non-finite number as JSON's null
  function rounded(v) {
    if (!isFinite(v)) return null;
    const r = Math.sign(v) * Math.floor(Math.abs(v) * 1e4 + 0.5) / 1e4;
    return r === 0 ? 0 : r;
  }
  // PageData::quantised: each value clamped to [-1, 1] as a signed byte round(127 v), base64
  function quantised(values) {
    let out = "";
    for (const v of values) {
      const x = isFinite(v) ? Math.min(1, Math.max(-1, v)) : 0;
      out += String.fromCharCode(Math.sign(x) * Math.floor(Math.abs(127 * x) + 0.5) & 0xff);
    }
    return btoa(out);
  }
  // PieceText::join: byte pieces as their bytes, the word mark as a space
  function joinPieces(pieces) {
    const bytes = [];
    const utf8 = new TextEncoder();
    for (const p of pieces) {
      const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(p);
      if (m) bytes.push(parseInt(m[1], 16));
      else bytes.push(...utf8.encode(p.replace(/\u2581/g, " ")));
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }
  // LinkExtraction::wordLabels: each word spelled by its tokens
  function wordLabels(tokens, words, count) {
    const pieces = Array.from({length: count}, () => []);
    tokens.forEach((t, i) => { if (words[i] >= 0 && words[i] < count) pieces[words[i]].push(t); });
    return pieces.map((p) => joinPieces(p).replace(/^ +| +$/g, "") || "?");
  }
  function topCandidates(logProbs, vocab) {
    const order = [];
    for (let i = 0; i < logProbs.length; i++) {
      if (order.length === TOP_K && !(logProbs[i] > logProbs[order[TOP_K - 1]])) continue;
      let at = order.length;
      while (at > 0 && logProbs[order[at - 1]] < logProbs[i]) at--;
      order.splice(at, 0, i);
      if (order.length > TOP_K) order.pop();
    }
    return order.map((i) => ({token: vocab[i], id: i, p: rounded(Math.exp(logProbs[i]))}));
  }

  // The page data of a live decoding. `base`: the page's own data (the model's facts: its card,
  // decoder, languages, options, a lesson's text); `run`: {text, source: [token, word] pairs and
  // ids, result (search.js's decode with numbers), forced (the target's words, or null), forcedAt
  // (steps written as given: what-if's replaced token), beam (hypotheses with their decodings)}.
  function liveData(model, base, run) {
    const info = model.info, vocab = info.tgt_vocab, specials = info.tgt_specials;
    const dec = base.decoder || {};
    const r = run.result;
    const sourceTokens = run.source.tokens.slice(), sourceWords = run.source.words.slice();
    const padding = !!info.metadata.attends_padding;
    if (padding) { sourceTokens.push(PADDING_COLUMN); sourceWords.push(-1); }
    const S = sourceTokens.length, real = S - (padding ? 1 : 0);
    const last = sourceTokens[S - 1];
    const endIsEos = S > 1 && sourceWords[S - 1] === -1 && !padding && !(last && !last.trim());
    const ids = r.target_ids;
    const written = (id) => ![specials.eos, specials.pad, specials.bos].includes(id);
    const tokens = ids.map((id) => vocab[id]);
    let targetWords;
    if (run.forced) targetWords = run.forced.concat(ids.slice(run.forced.length).map(() => -1));
    else {
      const words = window.AlignScopeTokenizer.detokenizedWords(info.tgt_tokenizer, ids.filter(written).map((id) => vocab[id]));
      let k = 0;
      targetWords = ids.map((id) => (written(id) ? words[k++] : -1));
    }
    const translation = window.AlignScopeTokenizer.detokenize(info.tgt_tokenizer, ids.filter(written).map((id) => vocab[id]));
    // the Words view's labels (PageData: the typed words where they are the model's words)
    const sw = sourceWords.slice(0, real);
    const sourceCount = Math.max(0, ...sw.map((w) => w + 1));
    const typed = run.text.split(/\s+/).filter((w) => w);
    let columns = typed.length === sourceCount ? typed : wordLabels(sourceTokens, sw, sourceCount);
    const endWord = real > 0 && sw[real - 1] < 0;
    if (endWord) columns = columns.concat([sourceTokens[real - 1]]);
    const targetCount = Math.max(0, ...targetWords.map((w) => w + 1));
    const sentencePiece = info.tgt_tokenizer.kind === "sentencepiece";
    const steps = r.steps.map((s, t) => {
      const candidates = topCandidates(s.log_probs, vocab);
      const query = dec.attention_after_cell ? s.state : s.previous_state;
      const explain = {query_size: query.length, query_norm: rounded(norm(query)), context_size: s.context.length,
                       context_norm: rounded(norm(s.context)), previous_state_norm: rounded(norm(s.previous_state)),
                       state_norm: rounded(norm(s.state)),
                       state_change: rounded(norm(s.state.map((v, i) => v - s.previous_state[i])))};
      if (s.query) explain.query_projection_norm = rounded(norm(s.query));
      if (s.energies) explain.energies = s.energies.slice(0, real).map(rounded);
      const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(vocab[s.chosen]);
      const piece = !sentencePiece || s.chosen === specials.eos ? null
        : byte ? "byte:0x" + byte[1].toLowerCase() : vocab[s.chosen].startsWith("\u2581") ? "start" : "continue";
      return {token: vocab[s.chosen], id: s.chosen, forced: !!run.forced || run.forcedAt === t, p: rounded(Math.exp(s.log_probs[s.chosen])),
              chosen: candidates.findIndex((c) => c.id === s.chosen), candidates: candidates, piece: piece, explain: explain,
              context: quantised(s.context), state: quantised(s.state)};
    });
    const encoder = r.encoder, E = r.steps.length ? r.steps[0].context.length : encoder.states.length / run.source.ids.length;
    const states = encoder.states.concat(padding ? new Array(E).fill(0) : []);
    const data = {
      format: "alignscope-alignment", format_version: 2, generator: msg("live_generator", {generator: base.generator || "AlignScope"}), rounded: 4,
      model: base.model, model_card: base.model_card, decoder: base.decoder,
      source_text: run.text, source_tokens: sourceTokens, source_words: sourceWords,
      alpha: r.steps.map((s) => s.alpha.map(rounded)),
      end_column: endIsEos ? S - 1 : null, padding_column: padding,
      target_tokens: tokens, target_words: targetWords, translation: translation,
      teacher_forced: !!run.forced,
      beam_hypothesis: run.beam ? 0 : -1,
      beam_width: run.beam ? run.beam.width : 1,
      beam: run.beam ? run.beam.hypotheses.map((h) => ({
        text: window.AlignScopeTokenizer.detokenize(info.tgt_tokenizer, h.ids.filter(written).map((id) => vocab[id])),
        tokens: h.ids.map((id) => vocab[id]), score: rounded(h.score), log_prob: rounded(h.logProb),
        finished: h.ids[h.ids.length - 1] === specials.eos, alpha: h.decoding.steps.map((s) => s.alpha.map(rounded))})) : [],
      words: {source: columns, target: wordLabels(tokens, targetWords, targetCount), alpha: []},
      steps: steps,
      options: Object.assign({}, base.options || {}, {step: null}),
      encoder: {size: E, states: quantised(states), initial_state: quantised(encoder.initial_state)},
    };
    for (const key of ["source_language", "target_language", "lesson"]) if (base[key] !== undefined) data[key] = base[key];
    if (run.attribution) data.attribution = run.attribution;
    return data;
  }

  // The live panel above the page's controls, and what it does.
  function wake(root) {
    const page = root.alignscope;
    if (!page || !window.AlignScopeLive) return;
    const base = page.d;
    const panel = el("section", {"class": "as-panel as-live", "aria-label": msg("live_panel")});
    const status = panel.appendChild(el("p", {"class": "as-live-status", "aria-live": "polite"}, msg("live_loading")));
    const form = panel.appendChild(el("div", {"class": "as-live-form"}));
    function field(name, hint) {
      const wrap = form.appendChild(el("label", {"class": "as-live-field"}, name + " "));
      const box = wrap.appendChild(el("input", {type: "text", disabled: "", autocomplete: "off", spellcheck: "false",
                                                placeholder: hint}));
      return box;
    }
    const source = field(msg("source"), msg("live_source_hint"));
    const target = field(msg("live_target"), msg("live_target_hint"));
    const beamLabel = form.appendChild(el("label", {"class": "as-live-field"}, msg("live_beam") + " "));
    const beam = beamLabel.appendChild(el("select", {disabled: ""}));
    BEAM_WIDTHS.forEach((w) => beam.appendChild(el("option", {value: String(w)}, w === 1 ? msg("live_greedy", {width: w}) : String(w))));
    const occlusion = form.appendChild(el("button", {type: "button", disabled: "", "class": "as-live-occlusion",
      title: msg("live_occlusion_tip")}, msg("live_occlusion")));
    const note = panel.appendChild(el("p", {"class": "as-live-note", "aria-live": "polite"}));
    const error = panel.appendChild(el("p", {"class": "as-live-error", role: "alert"}));
    const place = () => {
      const header = root.querySelector(":scope > header");
      root.insertBefore(panel, header ? header.nextSibling : root.firstChild);
    };
    // which model the page carries, its licence and card: folded (a phone's screen is small), its
    // line held (not shown: nothing to unfold yet) from the start, so that the panel keeps its
    // height when the model is in
    const about = el("details", {"class": "as-live-about"});
    about.appendChild(el("summary", null, msg("live_about")));
    about.style.visibility = "hidden";
    status.after(about);
    place();
    // the room the panel leaves: the heatmap fitted again, what the lesson's page names in view
    page.draw();
    page.bringIntoView();
    source.value = base.source_text || "";
    if (base.teacher_forced) target.value = base.translation || "";
    const live = {busy: null, last: null, panel: panel};
    root.alignscopeLive = live;  // for tests: the last live decoding's numbers, and the promises

    live.model = window.AlignScopeLive.load((what) => {
      status.textContent = what === "ready" ? "" : msg("live_loading_" + what.replace("-", "_"));
    });
    live.model.then((model) => {
      live.readyMs = performance.now();  // since navigation began (docs/live-page.md's measurements)
      const info = model.info, carried = info.carried || {};
      status.textContent = "";
      // the model's own names (its file, licence, card) are data: as-live-value, not the page's words
      parts(status, window.AlignScopePage.msgParts("live_ready", {live: ["b", msg("live_ready_head")],
        model: ["span", carried.name || info.name || info.model, "as-live-value"]}));
      about.appendChild(parts(el("p"), window.AlignScopePage.msgParts("live_about_file", {
        file: ["span", carried.file || info.model, "as-live-value"],
        licence: carried.licence ? ["span", carried.licence, "as-live-value"] : msg("live_licence_unstated")})));
      if (carried.card) {
        about.appendChild(el("p")).appendChild(parts(el("a", {href: carried.card}), window.AlignScopePage.msgParts("live_card", {
          name: ["span", carried.card.split("/").pop(), "as-live-value"]})));
      }
      about.style.visibility = "";
      [source, target, beam, occlusion].forEach((e) => { e.disabled = false; });
      occlusion.addEventListener("click", () => {
        const progress = (k, n) => { note.textContent = msg("live_occlusion_progress", {k: k, n: n}); };
        show(occluded(model, progress), page.state.t).then(() => {
          if (!page.d.attribution) return;
          page.state.heatmap = "occlusion";
          page.heatmapSelect.value = "occlusion";
          page.draw();
        });
      });
      page.onCandidate = (t, candidate) => show(whatIf(model, t, candidate), t);
      page.draw();  // the candidates become buttons
      page.bringIntoView();
      const decodeTyped = () => show(typed(model));
      [source, target].forEach((box) => box.addEventListener("keydown", (e) => { if (e.key === "Enter") decodeTyped(); }));
      beam.addEventListener("change", decodeTyped);
      live.decodeTyped = decodeTyped;
    }, (e) => { status.textContent = msg("live_load_failed", {message: said(e)}); });

    // a run's data drawn at step `t` (the whole decoding where undefined); errors in the panel
    function show(promise, t) {
      error.textContent = "";
      live.busy = promise.then((run) => {
        live.last = run;
        page.replace(liveData(run.model, base, run), t);
        place();
      }).catch((e) => { error.textContent = said(e); }).finally(() => { note.textContent = ""; });
      return live.busy;
    }

    async function typed(model) {
      const text = source.value;
      const pairs = model.tokenizers.src.tokens(text);
      const ids = model.sourceIds(text);
      const sourcePart = {tokens: pairs.map((p) => p[0]).concat(ids.length > pairs.length ? [model.info.src_vocab[ids[ids.length - 1]]] : []),
                          words: pairs.map((p) => p[1]).concat(ids.length > pairs.length ? [-1] : []), ids: ids};
      const run = {model: model, text: text, source: sourcePart, forced: null, forcedAt: -1, beam: null};
      const width = Number(beam.value);
      if (target.value.trim()) {
        const tpairs = model.tokenizers.tgt.tokens(target.value);
        const eos = model.info.tgt_specials.eos;
        const forced = model.targetIds(target.value).concat(eos === undefined ? [] : [eos]);
        run.forced = tpairs.map((p) => p[1]);
        run.result = await model.decode(ids, {forced: forced, numbers: true});
      } else if (width > 1) {
        const hypotheses = await model.beam(ids, width);
        for (const h of hypotheses) h.decoding = await model.decode(ids, {forced: h.ids, numbers: true});
        run.beam = {width: width, hypotheses: hypotheses};
        run.result = hypotheses[0].decoding;
      } else {
        run.result = await model.decode(ids, {numbers: true});
      }
      return run;
    }

    // OcclusionAttribution.cpp's scores from forward passes only: each source token left out in
    // turn (the source one token shorter), the same target forced; log p(y_t|x) - log p(y_t|x\i)
    async function occluded(model, progress) {
      const run = live.last ? Object.assign({}, live.last) : await typed(model);
      const ids = run.source.ids, targetIds = run.result.target_ids, S = ids.length;
      if (S < 2) throw new Error(msg("live_occlusion_short"));
      const reference = run.result.steps.map((s) => s.log_probs[s.chosen]);
      const columns = [];
      for (let i = 0; i < S; i++) {
        progress(i + 1, S);
        const without = await model.decode(ids.filter((_, j) => j !== i), {forced: targetIds});
        columns.push(without.steps.map((s, t) => reference[t] - s.log_probs[targetIds[t]]));
      }
      const scores = reference.map((_, t) => columns.map((c) => c[t]));
      run.attribution = {method: "occlusion", signed: true,
                         description: msg("live_occlusion_description"),
                         extent: rounded(Math.max(1e-6, ...scores.map((r) => Math.max(...r.map(Math.abs))))),
                         source_tokens: run.source.tokens.slice(0, S), scores: scores.map((r) => r.map(rounded))};
      return run;
    }

    // what-if (DecodingSession::force then runToEnd): the tokens before step t kept, the
    // candidate written at t, then the best token until </s>
    async function whatIf(model, t, candidate) {
      const previous = live.last;
      const prefix = page.d.steps.slice(0, t - 1).map((s) => s.id).concat([candidate.id]);
      const run = previous ? Object.assign({}, previous) : await typed(model);
      run.forced = null;
      run.beam = null;
      run.attribution = null;
      run.forcedAt = t - 1;
      run.result = await model.decode(run.source.ids, {prefix: prefix, numbers: true});
      return run;
    }
  }

  function wakeAll() {
    document.querySelectorAll(".alignscope-page").forEach(wake);
  }
  window.AlignScopeLivePage = {liveData: liveData, wake: wake};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wakeAll);
  else wakeAll();
})();
