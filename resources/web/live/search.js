// The live page's search rules, in one module (issue 57; docs/architecture.md lists the copies):
// greedy, teacher-forced and what-if decoding (core/decoding/DecodingSession.cpp's loop) and beam
// search (BeamSearch.cpp, Beam.cpp). No arithmetic of the model: `m` (live.js's LiveModel) runs
// the exported graphs: m.encode, m.step (one row), m.run (a batch of rows), m.rowsOf, m.info, m.eos,
// m.startId.
(function () {
  "use strict";

  // best score first, equals in the order they came (std::stable_sort)
  function stableSorted(hypotheses) {
    return hypotheses.map((h, i) => [h, i]).sort((a, b) => b[0].score - a[0].score || a[1] - b[1]).map((p) => p[0]);
  }

  function argmax(values) {
    // the first of equal maxima, as torch's argmax on a CPU
    let best = 0;
    for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
    return best;
  }

  // SearchOptions::lengthLimit: the caller's cap, else the model's max_length, else 2 S + 10
  function lengthLimit(m, columns, maxLength) {
    if (maxLength > 0) return maxLength;
    const declared = m.info.metadata.max_length || 0;
    return declared > 0 ? declared : 2 * columns + 10;
  }

  // DecodingSession's loop: forced tokens while there are any, else the best token until </s>
  // or the length cap (a what-if prefix first, as force()). options.numbers: every step's states and
  // extras kept too (the page's encoder panel and Step explained)
  async function decode(m, srcIds, options) {
    const forced = options.forced || null;
    const prefix = options.prefix || [];
    const t0 = performance.now();
    const encoded = await m.encode(srcIds);
    const tEncode = performance.now() - t0;
    const columns = srcIds.length + (m.info.metadata.attends_padding ? 1 : 0);
    const limit = lengthLimit(m, columns, options.maxLength || 0);
    const steps = [];
    const stepMs = [];
    let state = encoded.state;
    let previous = m.startId;
    for (;;) {
      const t = steps.length;
      if (forced && t >= forced.length) break;
      if (!forced && ((t && steps[t - 1].chosen === m.eos) || t >= limit)) break;
      const started = performance.now();
      const out = await m.step(previous, state, encoded);
      const chosen = forced ? forced[t] : t < prefix.length ? prefix[t] : argmax(out.logProbs);
      stepMs.push(performance.now() - started);
      const step = {y_prev: previous, chosen: chosen, log_probs: Array.from(out.logProbs), alpha: out.alpha};
      if (options.numbers) {  // what the page's panels show: the states, and the extras the step returns
        step.previous_state = Array.from(state.data);
        for (const [name, tensor] of Object.entries(out.outputs)) {
          if (!["log_probs", "alpha", "alpha_padding"].includes(name)) step[name] = Array.from(tensor.data);
        }
      }
      steps.push(step);
      state = out.state;
      previous = chosen;
    }
    return {target_ids: steps.map((s) => s.chosen), steps: steps, encode_ms: tEncode, step_ms: stepMs,
            encoder: options.numbers ? {states: Array.from(encoded.enc.data), initial_state: Array.from(encoded.state.data)} : null,
            total_ms: performance.now() - t0};
  }

  // BeamSearch.cpp's rules (python/alignscope/decoding.py's beam_search is its Python copy):
  // 2 x width candidates a step, an </s> among the best `width` finishes a hypothesis, stop once
  // `width` finished that no open prefix can beat; scores are log-probabilities over length^penalty.
  // Returns the finished hypotheses, best first: {ids, logProb, score}.
  async function beam(m, srcIds, width, options) {
    const opts = options || {};
    const penalty = opts.lengthPenalty === undefined ? 1.0 : opts.lengthPenalty;
    const normalised = (h) => penalty === 0 ? h.logProb : h.logProb / Math.pow(h.ids.length, penalty);
    const encoded = await m.encode(srcIds);
    const columns = srcIds.length + (m.info.metadata.attends_padding ? 1 : 0);
    const limit = lengthLimit(m, columns, opts.maxLength || 0);
    let alive = [{ids: [], logProb: 0}];
    let finished = [];
    let state = encoded.state;
    let rowsEnc = encoded;
    let ys = [m.startId];
    let steps = 0;
    let done = limit < 1;
    while (!done) {
      const out = await m.run(ys, state, rowsEnc);
      const logProbs = out.log_probs.data;
      const V = logProbs.length / alive.length;
      const k = Math.min(2 * width, logProbs.length);
      // the k best (row, token) by total log-probability, best first (the first of equals first)
      const best = [];
      for (let i = 0; i < logProbs.length; i++) {
        const total = logProbs[i] + alive[Math.floor(i / V)].logProb;
        if (best.length === k && total <= best[k - 1].total) continue;
        let at = best.length;
        while (at > 0 && best[at - 1].total < total) at--;
        best.splice(at, 0, {total: total, index: i});
        if (best.length > k) best.pop();
      }
      const next = [];
      const rows = [];
      for (let j = 0; j < best.length && next.length < width; j++) {
        const row = Math.floor(best[j].index / V);
        const token = best[j].index % V;
        const h = {ids: alive[row].ids.concat([token]), logProb: best[j].total};
        if (token === m.eos) {
          if (j >= width) continue;
          h.score = normalised(h);
          finished.push(h);
        } else {
          next.push(h);
          rows.push(row);
        }
      }
      alive = next;
      steps++;
      done = !alive.length || steps >= limit;
      if (alive.length && finished.length >= width) {
        finished = stableSorted(finished).slice(0, width);
        if (Math.max(...alive.map(normalised)) < finished[finished.length - 1].score) done = true;
      }
      if (done) break;
      state = m.rowsOf(out.state, rows);
      const zeros = rows.map(() => 0);
      rowsEnc = {enc: m.rowsOf(encoded.enc, zeros), keys: m.rowsOf(encoded.keys, zeros),
                 mask: m.rowsOf(encoded.mask, zeros)};
      ys = alive.map((h) => h.ids[h.ids.length - 1]);
    }
    if (!finished.length) {
      alive.forEach((h) => { h.score = normalised(h); });
      finished = alive;
    }
    return stableSorted(finished).slice(0, width);
  }

  window.AlignScopeSearch = {decode: decode, beam: beam, lengthLimit: lengthLimit, argmax: argmax};
})();
