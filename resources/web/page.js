// AlignScope page: draws one decoding (the JSON of docs/page-format.md) and steps through it.
// One renderer for every producer (alignscope-cli export --format html, export-lesson, Python's
// alignscope.show). Untrusted text (tokens, sentences, names, lesson text) only ever reaches the
// page through textContent and attribute values, never as markup.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // The app's colour scales (ui/PlotStyle.cpp): viridis sampled at nine points, grey white to
  // black, and blue-white-red for signed attributions; interpolated in RGB as QCustomPlot does.
  var SCALES = {
    viridis: ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"],
    grey: ["#ffffff", "#000000"],
    diverging: ["#2166ac", "#f7f7f7", "#b2182b"]
  };
  var PARTS = ["query", "energies", "softmax", "context", "update", "output", "attribution"];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  // A lesson's text from its element tree (the lesson's own subset, checked by the program that
  // wrote the page): each element made by its name from this list, each text by textContent, a
  // picture only from pictureSource's two forms. Anything else is left out, so no markup is ever parsed or run.
  // A picture's source: a data: URI (a page of its own), or a lesson site's picture file beside the
  // page, named by its content's hash (SiteFiles: each picture once for the whole site).
  function pictureSource(src) {
    return typeof src === "string" && (/^data:image\/(png|jpeg);base64,/.test(src) || /^pictures\/[0-9a-f]{32}\.(png|jpg)$/.test(src));
  }
  var MARKUP_TAGS = {em: "i", strong: "b", code: "code", sub: "sub", sup: "sup", br: "br", ul: "ul", ol: "ol", li: "li"};
  function markup(parent, nodes) {
    (nodes || []).forEach(function (n) {
      if (!n || typeof n !== "object") return;
      if (n.kind === "text") parent.appendChild(document.createTextNode(String(n.text || "")));
      else if (n.kind === "img" && pictureSource(n.src))
        parent.appendChild(el("img", {src: n.src, alt: msg("lesson_inline_picture"), "class": "as-lesson-inline"}));
      else if (Object.prototype.hasOwnProperty.call(MARKUP_TAGS, n.kind)) markup(parent.appendChild(el(MARKUP_TAGS[n.kind])), n.children);
    });
    return parent;
  }
  // A rich line built from parts: strings are text; [tag, text] makes <i>/<b>/<sub>/<sup>.
  function rich(tag, parts) {
    var e = el(tag);
    parts.forEach(function (p) {
      if (typeof p === "string") e.appendChild(document.createTextNode(p));
      else e.appendChild(el(p[0], null, p[1]));
    });
    return e;
  }
  function hex(c) { return [parseInt(c.substr(1, 2), 16), parseInt(c.substr(3, 2), 16), parseInt(c.substr(5, 2), 16)]; }
  function rgb(stops, x) {
    x = Math.max(0, Math.min(1, isFinite(x) ? x : 0));
    var n = stops.length - 1, k = Math.min(n - 1, Math.floor(x * n)), f = x * n - k;
    var a = hex(stops[k]), b = hex(stops[k + 1]);
    return [0, 1, 2].map(function (i) { return Math.round(a[i] + (b[i] - a[i]) * f); });
  }
  function colour(stops, x) { return "rgb(" + rgb(stops, x).join(",") + ")"; }
  // A quantised vector of the data (docs/page-format.md: encoder): signed bytes over 127, base64.
  function vector(b64) {
    var bin = window.atob(b64 || ""), out = new Float32Array(bin.length);
    for (var i = 0; i < bin.length; ++i) { var b = bin.charCodeAt(i); out[i] = (b > 127 ? b - 256 : b) / 127; }
    return out;
  }
  // The encoder panel's colours, blue-white-red over [-1, 1], one per byte value (-127..127).
  var DIVERGING = null;
  function diverging(v) {
    if (!DIVERGING) {
      DIVERGING = [];
      for (var q = -127; q <= 127; ++q) DIVERGING.push(rgb(SCALES.diverging, (q / 127 + 1) / 2));
    }
    return DIVERGING[Math.max(0, Math.min(254, Math.round(v * 127) + 127))];
  }
  function fixed(v, d) { return (Math.round(v * Math.pow(10, d)) / Math.pow(10, d)).toFixed(d); }
  // A whitespace token (a character model's space) shows as ␣, as the app labels it.
  // A language code the model declares, by name ("de" -> "German"); the code where the browser
  // has no name for it.
  function languageName(code) {
    if (!code) return "";
    try { return new Intl.DisplayNames([document.documentElement.lang || "en"], {type: "language"}).of(code) || code; } catch (e) { return code; }
  }
  function side(name, code) { var l = languageName(code); return l ? name + " (" + l + ")" : name; }
  // FigureOptions::sideLabel: "target (French, decoded)".
  function side2(name, code, detail) {
    var parts = [languageName(code), detail].filter(function (x) { return x; });
    return parts.length ? name + " (" + parts.join(", ") + ")" : name;
  }
  // The page's words in its language: the catalogue the producer put in (resources/web/messages/,
  // one a language). msg("key", {name: value}) fills {name}: a sentence is one template, so a
  // language orders it its own way. (Not msg(): t is the step throughout.)
  var MESSAGES = (function () {
    var e = document.querySelector("script.alignscope-messages");
    try { return e ? JSON.parse(e.textContent) : {}; } catch (x) { return {}; }
  })();
  function template(key) { return Object.prototype.hasOwnProperty.call(MESSAGES, key) ? MESSAGES[key] : key; }
  function msg(key, args) {
    return template(key).replace(/\{(\w+)\}/g, function (all, name) {
      return args && Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : all;
    });
  }
  // Parts in a row for msgParts (a formula: text with subscripts).
  function seq() { return {seq: Array.prototype.slice.call(arguments)}; }
  // The template as rich() parts: a placeholder may be text, a [tag, text] node or a seq(...).
  function msgParts(key, args) {
    var out = [];
    template(key).split(/(\{\w+\})/).forEach(function (piece) {
      var name = /^\{(\w+)\}$/.exec(piece), v = name && args && Object.prototype.hasOwnProperty.call(args, name[1]) ? args[name[1]] : undefined;
      if (v === undefined) { if (piece) out.push(piece); } else if (v && v.seq) out = out.concat(v.seq);
      else out.push(Array.isArray(v) ? v : String(v));
    });
    return out;
  }
  // A number in prose with the language's decimal sign (matrices and charts keep the dot).
  function prose(text) { return String(text).replace(".", template("decimal_sign")); }
  // An attribution method's name and description in the page's language: the catalogue's
  // method_<id> and method_<id>_description (en.json's are the engine's own words, held equal by
  // test_page_languages), else the data's.
  function methodName(m) {
    var key = "method_" + String(m).replace(/-/g, "_");
    return Object.prototype.hasOwnProperty.call(MESSAGES, key) ? MESSAGES[key] : m;
  }
  function methodDescription(a) {
    var key = "method_" + String(a.method).replace(/-/g, "_") + "_description";
    return Object.prototype.hasOwnProperty.call(MESSAGES, key) ? MESSAGES[key] : (a.description || "");
  }
  function label(token) { return token.length && !token.trim().length ? "\u2423".repeat(token.length) : token; }
  // An axis's labels: the ones the data carries (PieceText::labels: byte pieces that spell a
  // letter read as it), else the tokens; Step explained keeps the tokens as the model sees them.
  function axisLabels(tokens, shown) { return (shown && shown.length === tokens.length ? shown : tokens).map(label); }
  function argmax(row) {
    var best = 0;
    for (var i = 1; i < row.length; ++i) if (row[i] > row[best]) best = i;
    return best;
  }
  // The font stack page.css gives the page (Hangul's fonts in it), for measuring as it draws.
  var fonts = null;
  function pageFonts() {
    var page = fonts === null && document.querySelector(".alignscope-page");
    if (fonts === null) fonts = (page && getComputedStyle(page).fontFamily) || "system-ui, 'DejaVu Sans', sans-serif";
    return fonts;
  }
  // A text's width in pixels at `px` (the page's font), to make room for labels before drawing.
  // Kept once measured: a step lays out every label of the heatmap and of Step explained's charts
  // again, and setting a canvas's font and measuring was most of a step's script time.
  var measure = null, measureFont = "", widths = new Map();
  function textWidth(text, px) {
    var key = px + "|" + text, w = widths.get(key);
    if (w !== undefined) return w;
    if (!measure) measure = document.createElement("canvas").getContext("2d");
    var font = px + "px " + pageFonts();
    if (font !== measureFont) measure.font = measureFont = font;
    if (widths.size > 50000) widths.clear();
    w = measure.measureText(text).width;
    widths.set(key, w);
    return w;
  }
  // A label cut to `max` pixels at `px`, with an ellipsis (the whole name goes in its tooltip).
  function shorten(text, px, max) {
    if (textWidth(text, px) <= max) return text;
    while (text.length > 1 && textWidth(text + "\u2026", px) > max) text = text.slice(0, -1);
    return text + "\u2026";
  }
  function sum(row) { return row.reduce(function (a, b) { return a + b; }, 0); }
  function norm(v) { return Math.sqrt(v.reduce(function (a, b) { return a + b * b; }, 0)); }

  function Page(root, data) {
    this.root = root;
    this.d = data;
    var o = data.options || {};
    var T = data.target_tokens.length;
    this.state = {
      t: typeof o.step === "number" ? Math.max(0, Math.min(T, o.step)) : T,
      end: o.end_column === "drop" || o.end_column === "renormalize" ? o.end_column : "keep",
      words: !!o.words,
      cmap: o.color_map === "grey" || o.color_map === "gray" ? "grey" : "viridis",
      heatmap: o.heatmap && data.attribution && data.attribution.method === o.heatmap ? o.heatmap : "attention",
      snapshot: data.timeline ? data.timeline.shown : -1,
      hyp: data.beam && data.beam.length ? data.beam_hypothesis : -1
    };
    this.build();
    this.draw();
  }

  Page.prototype.build = function () {
    var d = this.d, self = this, root = this.root;
    var header = el("header");
    header.appendChild(el("h1", null, d.options && d.options.title ? d.options.title : msg("page_title", {model: d.model})));
    var src = el("p", {"class": "as-sentence"});
    src.appendChild(el("span", {"class": "as-label"}, msg("source")));
    src.appendChild(el("span", {"class": "as-source"}, d.source_text));
    var tgt = el("p", {"class": "as-sentence"});
    tgt.appendChild(el("span", {"class": "as-label"}, d.teacher_forced ? msg("target_forced") :
      d.beam && d.beam.length ? msg("translation_beam", {width: d.beam_width}) : msg("translation_greedy")));
    this.translationText = tgt.appendChild(el("span", {"class": "as-translation"}, d.translation));
    header.appendChild(src);
    header.appendChild(tgt);
    root.appendChild(header);

    if (d.lesson) root.appendChild(this.lessonPanel(d.lesson));

    var controls = el("div", {"class": "as-controls", role: "toolbar", "aria-label": msg("toolbar")});
    function button(text, title, fn, cls) {
      var b = el("button", {type: "button", title: title, "class": cls || ""}, text);
      b.addEventListener("click", fn);
      controls.appendChild(b);
      return b;
    }
    this.homeButton = button("\u23ee " + msg("start"), msg("start_tip"), function () { self.go(0); });
    this.backButton = button("\u2190 " + msg("back"), msg("back_tip"), function () { self.go(self.state.t - 1); }, "as-back");
    this.stepButton = button(msg("step") + " \u2192", msg("step_tip"), function () { self.go(self.state.t + 1); }, "as-next");
    this.endButton = button(msg("end") + " \u23ed", msg("end_tip"), function () { self.go(Infinity); });
    this.stepLabel = el("span", {"class": "as-step", "aria-live": "polite"});
    controls.appendChild(this.stepLabel);
    function select(key, name, options, value, fn) {
      var id = "as-" + key + "-" + Page.count;  // by its key: a translated name makes no id
      var wrap = el("label", {"for": id}, name + " ");
      var s = el("select", {id: id});
      options.forEach(function (o) {
        var opt = el("option", {value: o[0]}, o[1]);
        if (o[0] === value) opt.selected = true;
        s.appendChild(opt);
      });
      s.addEventListener("change", function () { fn(s.value); self.draw(); });
      wrap.appendChild(s);
      controls.appendChild(wrap);
      return s;
    }
    var heatmaps = [["attention", msg("heatmap_attention")]];
    if (d.attribution) heatmaps.push([d.attribution.method, methodName(d.attribution.method)]);
    this.heatmapSelect = select("heatmap", msg("heatmap"), heatmaps, this.state.heatmap, function (v) { self.state.heatmap = v; });
    this.endSelect = select("s-column", msg("end_column"), [["keep", msg("end_kept")], ["drop", msg("end_dropped")], ["renormalize", msg("end_renormalised")]],
      this.state.end, function (v) { self.state.end = v; });
    if (d.end_column === null || d.end_column === undefined) this.endSelect.disabled = true;
    this.cmapSelect = select("colours", msg("colours"), [["viridis", "viridis"], ["grey", msg("grey")]], this.state.cmap,
      function (v) { self.state.cmap = v; });
    var wid = "as-words-" + Page.count;
    var wl = el("label", {"for": wid});
    this.wordsBox = el("input", {type: "checkbox", id: wid});
    this.wordsBox.checked = this.state.words;
    this.wordsBox.addEventListener("change", function () { self.state.words = self.wordsBox.checked; self.draw(); });
    wl.appendChild(this.wordsBox);
    wl.appendChild(document.createTextNode(" " + msg("words_merged")));
    controls.appendChild(wl);
    if (d.timeline && d.timeline.snapshots.length) {
      // A training run (a lesson page): the same forced sentence through each snapshot.
      var tid = "as-snapshot-" + Page.count;
      var tl = el("label", {"for": tid}, msg("snapshot") + " ");
      this.snapshotRange = el("input", {type: "range", id: tid, min: 0, max: d.timeline.snapshots.length - 1, step: 1,
        value: this.state.snapshot, "aria-valuetext": d.timeline.snapshots[this.state.snapshot].label});
      this.snapshotRange.addEventListener("input", function () {
        self.state.snapshot = Number(self.snapshotRange.value);
        self.snapshotRange.setAttribute("aria-valuetext", d.timeline.snapshots[self.state.snapshot].label);
        self.draw();
      });
      tl.appendChild(this.snapshotRange);
      controls.appendChild(tl);
      this.snapshotLabel = el("span", {"class": "as-snapshot-label", "aria-live": "polite"});
      controls.appendChild(this.snapshotLabel);
    }
    root.appendChild(controls);

    var layout = el("div", {"class": "as-layout"});
    var main = el("div", {"class": "as-main"});
    var hm = el("section", {"class": "as-panel as-heatmap-panel", "aria-label": msg("heatmap")});
    this.heatmapTitle = el("h2");
    hm.appendChild(this.heatmapTitle);
    this.sumNote = el("p", {"class": "as-note as-sum-note"});
    hm.appendChild(this.sumNote);
    this.heatmapBox = el("div", {"class": "as-heatmap-box", tabindex: "0",
      "aria-label": msg("heatmap_box")});
    // The axis titles of the app's figure: the source's above its (pinned) column labels, the
    // target's beside the rows.
    this.xTitle = hm.appendChild(el("p", {"class": "as-axis-title as-axis-x"}));
    var hmRow = hm.appendChild(el("div", {"class": "as-axis-row"}));
    this.yTitle = hmRow.appendChild(el("div", {"class": "as-axis-title as-axis-y"}));
    hmRow.appendChild(this.heatmapBox);
    this.readout = el("p", {"class": "as-readout", "aria-live": "polite"}, this.readoutHint());
    hm.appendChild(this.readout);
    this.colorbar = el("div", {"class": "as-colorbar-box"});
    hm.appendChild(this.colorbar);
    main.appendChild(hm);
    if (d.encoder) main.appendChild(this.encoderPanel());
    if (d.comparison) {
      var cmp = el("section", {"class": "as-panel as-compare-panel", "aria-label": msg("model_b")});
      cmp.appendChild(el("h2", null, msg("model_b_named", {model: d.comparison.model})));
      cmp.appendChild(el("p", {"class": "as-sentence"}, d.comparison.translation));
      this.compareBox = el("div", {"class": "as-heatmap-box"});
      cmp.appendChild(this.compareBox);
      main.appendChild(cmp);
    }
    if (d.beam && d.beam.length) {
      var beam = el("section", {"class": "as-panel as-beam-panel", "aria-label": msg("beam")});
      beam.appendChild(el("h2", null, msg("beam_title")));
      var choosable = d.beam.every(function (h) { return h.alpha; });
      if (choosable) beam.appendChild(el("p", {"class": "as-note"}, msg("beam_choose", {own: this.own()})));
      this.beamList = el("ol", {"class": "as-beam"});
      this.beamItems = d.beam.map(function (h, k) {
        var li = el("li");
        // A button per hypothesis (keyboard and touch as well as the mouse) where its rows are in the data.
        var name = choosable ? el("button", {type: "button", "class": "as-hyp", "aria-pressed": "false"}, h.text) : el("span", {"class": "as-hyp"}, h.text);
        if (choosable) name.addEventListener("click", function () { self.choose(k); });
        li.appendChild(name);
        li.appendChild(el("span", {"class": "as-score"}, "  " + fixed(h.score, 3) + (h.finished ? "" : " " + msg("beam_cut"))));
        li.appendChild(el("span", {"class": "as-shown-mark"}));
        self.beamList.appendChild(li);
        return li;
      });
      beam.appendChild(this.beamList);
      main.appendChild(beam);
      this.beamPanel = beam;
    }
    main.appendChild(this.cardPanel());
    layout.appendChild(main);

    var side = el("div", {"class": "as-side"});
    // A training run's loss beside the heatmap (above it, it pushed the heatmap below a lesson's fold).
    if (d.timeline && d.timeline.loss && d.timeline.loss.length > 1) side.appendChild(this.lossPanel());
    var cands = el("section", {"class": "as-panel as-candidates-panel", "aria-label": msg("candidates")});
    this.candTitle = el("h2", null, msg("candidates"));
    cands.appendChild(this.candTitle);
    this.candList = el("ol", {"class": "as-candidates"});
    cands.appendChild(this.candList);
    side.appendChild(cands);
    var explain = el("section", {"class": "as-panel as-explain", "aria-label": msg("explained")});
    explain.appendChild(el("h2", null, msg("explained")));
    this.explainBody = el("div");
    explain.appendChild(this.explainBody);
    side.appendChild(explain);
    layout.appendChild(side);
    root.appendChild(layout);
    this.panels = {heatmap: hm, candidates: cands, explain: explain, beam: this.beamPanel, encoder: this.encPanel};
    if (d.lesson && d.lesson.highlight && this.panels[d.lesson.highlight]) this.panels[d.lesson.highlight].classList.add("as-highlight");

    // A page file takes the keys of its whole document; a page inside another (a notebook) only
    // those pressed while the focus is in it, so the notebook's own editing keys stay its own.
    var keyTarget = root.getAttribute("data-keys") === "document" ? document : root;
    if (keyTarget === root && !root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
    var first = !this.listening;
    if (first) {  // once: replace() builds again
      this.listening = true;
      keyTarget.addEventListener("keydown", function (e) { self.key(e); });
      // The heatmap fits the room it has: drawn again when the window (or a notebook's frame) resizes.
      var pending = false;
      var redraw = function () {
        if (pending) return;
        pending = true;
        window.requestAnimationFrame(function () { pending = false; self.draw(); });
      };
      window.addEventListener("resize", redraw);
      // and when the screen's pixel density changes (a window moved to another screen): the
      // heatmap's canvas is painted in device pixels
      var density = function () {
        var q = window.matchMedia && window.matchMedia("(resolution: " + (window.devicePixelRatio || 1) + "dppx)");
        if (q && q.addEventListener) q.addEventListener("change", function () { redraw(); density(); }, {once: true});
      };
      density();
    }
    root.alignscope = this;  // for tests and notebooks: the page object behind the drawing
    if (d.lesson && first) {  // not again when a live decoding is drawn in place
      // Once the reader scrolls, clicks or presses a key, where the page stands is theirs: the
      // live panel (page-live.js) arriving above the page later no longer moves it.
      var moved = function () { self.readerMoved = true; };
      ["wheel", "touchstart", "pointerdown", "keydown"].forEach(function (type) {
        window.addEventListener(type, moved, {once: true, passive: true, capture: true});
      });
      window.requestAnimationFrame(function () { self.bringIntoView(); });
    }
  };

  // What the lesson's text talks about brought into view once laid out: the part of Step explained
  // it marks, or the panel it frames (the heatmap's and the encoder's: their matrix, not the
  // colour scale under it, which would push the lesson's text out of the window). Scrolled only
  // where part of it is out of the window (a top in view with rows under the window's edge is not
  // in view: the page talks about every row), and no further than needed (its bottom to the
  // window's, or its top to the window's where it is taller): the lesson's text stays in view
  // where it can. Again after the page's layout changed under it (the live panel), until the
  // reader moves.
  Page.prototype.bringIntoView = function () {
    var d = this.d;
    if (!d.lesson || this.readerMoved) return;
    var part = d.lesson.explain && (!d.lesson.highlight || d.lesson.highlight === "explain")
      ? this.explainBody.querySelector(".as-part-" + d.lesson.explain) : null;  // drawn by now
    var named = d.lesson.highlight, matrix = {heatmap: this.heatmapBox, encoder: this.encBox}[named];
    var target = part || (named && this.panels[named] && (matrix || this.panels[named]));
    if (!target) return;
    var r = target.getBoundingClientRect(), h = window.innerHeight;
    if (r.top >= 0 && r.bottom <= h) return;
    window.scrollTo(0, window.scrollY + r.top - Math.max(8, h - r.height - 8));
  };

  // The encoder states under the heatmap, on its source axis (the PNG figure's lower panel): a
  // column of h_i per source token, c_t and s_t beside them, blue-white-red over [-1, 1].
  Page.prototype.encoderPanel = function () {
    var d = this.d, self = this;
    var p = el("section", {"class": "as-panel as-encoder-panel", "aria-label": msg("encoder")});
    p.appendChild(rich("h2", msgParts("encoder_title", {h: seq("h", ["sub", "i"]), c: seq("c", ["sub", "t"]), s: seq("s", ["sub", "t"])})));
    var row = p.appendChild(el("div", {"class": "as-axis-row"}));
    this.encYTitle = row.appendChild(el("div", {"class": "as-axis-title as-axis-y"}));
    this.encBox = row.appendChild(el("div", {"class": "as-encoder-box"}));
    p.appendChild(rich("p", msgParts("encoder_axis", {h: seq("h", ["sub", "i"])}))).className = "as-axis-title as-axis-enc";
    this.encNote = p.appendChild(el("p", {"class": "as-note"}));
    // Its scale: every value of the panel (tanh-bounded states) from -1 to 1.
    var W = 220, g = svg("svg", {"class": "as-colorbar as-enc-scale", width: W, height: 44, role: "img", "aria-label": msg("encoder_scale")});
    var id = "as-enc-grad-" + Page.count, defs = svg("defs"), grad = svg("linearGradient", {id: id});
    SCALES.diverging.forEach(function (c, k) { grad.appendChild(svg("stop", {offset: k / 2, "stop-color": c})); });
    defs.appendChild(grad);
    g.appendChild(defs);
    g.appendChild(svg("rect", {x: 10, y: 4, width: W - 20, height: 10, fill: "url(#" + id + ")", stroke: "#888"}));
    [["-1", "start", 10], ["0", "middle", W / 2], ["1", "end", W - 10]].forEach(function (t) {
      g.appendChild(svg("text", {x: t[2], y: 27, "text-anchor": t[1]}, t[0]));
    });
    g.appendChild(svg("text", {x: W / 2, y: 41, "text-anchor": "middle", "class": "as-scale-title"}, msg("encoder_scale_title")));
    p.appendChild(el("div", {"class": "as-colorbar-box"})).appendChild(g);
    // The encoder's columns scroll with the heatmap's.
    this.heatmapBox.addEventListener("scroll", function () { self.encBox.scrollLeft = self.heatmapBox.scrollLeft; });
    this.encPanel = p;
    return p;
  };

  // The training run's loss (the timeline export's curve), the snapshot on show marked on it.
  Page.prototype.lossPanel = function () {
    var tl = this.d.timeline;
    var p = el("section", {"class": "as-panel as-loss-panel", "aria-label": msg("loss")});
    p.appendChild(el("h2", null, msg("loss_title", {run: tl.name})));
    // Drawn in the page's pixels (not scaled to the width: at 1,000 px a scaled chart took 230 px of height).
    var wide = (this.root.clientWidth || 1000) >= 760;  // page.css: two columns, the side one at most 380 px
    var W = wide ? 340 : Math.max(260, (this.root.clientWidth || 360) - 40), H = 130, L = 44, R = 10, T = 8, B = 30;
    var pts = tl.loss, first = Math.max(1, pts[0][0]), last = Math.max(first + 1, pts[pts.length - 1][0], tl.updates || 0);
    var lo = Math.min.apply(null, pts.map(function (q) { return q[1]; })), hi = Math.max.apply(null, pts.map(function (q) { return q[1]; }));
    lo = Math.min(0, lo);
    var logX = last / first > 50;  // snapshots spaced out as the run goes: a log axis shows the early ones
    var fx = function (u) { u = Math.max(first, u); return L + (W - L - R) * (logX ? Math.log(u / first) / Math.log(last / first) : (u - first) / (last - first)); };
    var fy = function (v) { return T + (H - T - B) * (1 - (v - lo) / ((hi - lo) || 1)); };
    var g = svg("svg", {"class": "as-chart as-loss", viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
      "aria-label": msg("loss_chart", {updates: last})});
    g.appendChild(svg("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#999"}));
    g.appendChild(svg("line", {x1: L, x2: L, y1: T, y2: H - B, stroke: "#999"}));
    [hi, (hi + lo) / 2, lo].forEach(function (v) {
      g.appendChild(svg("text", {x: L - 4, y: fy(v) + 4, "text-anchor": "end", "class": "as-tick"}, fixed(v, 2)));
    });
    var ticks = [];
    if (logX) for (var u = 1; u <= last; u *= 10) { if (u >= first) ticks.push(u); } else ticks = [first, Math.round((first + last) / 2), last];
    ticks.forEach(function (u) { g.appendChild(svg("text", {x: fx(u), y: H - B + 14, "text-anchor": "middle", "class": "as-tick"}, String(u))); });
    g.appendChild(svg("text", {x: (L + W - R) / 2, y: H - 3, "text-anchor": "middle", "class": "as-tick"},
      msg(logX ? "loss_axes_log" : "loss_axes")));
    g.appendChild(svg("polyline", {points: pts.map(function (q) { return fx(q[0]).toFixed(1) + "," + fy(q[1]).toFixed(1); }).join(" "),
      fill: "none", stroke: "#1f77b4", "stroke-width": 1.5}));
    // Each snapshot sits on the curve (the trend at its update; its own smoothed loss lags it), as in the app.
    var onCurve = function (u) {
      var v = pts[0][1];
      for (var i = 0; i < pts.length && pts[i][0] <= u; ++i) v = pts[i][1];
      return v;
    };
    this.lossDots = tl.snapshots.map(function (snap) {
      if (typeof snap.update !== "number") return null;
      var dot = svg("circle", {cx: fx(snap.update), cy: fy(onCurve(snap.update)), r: 4, fill: "#fff", stroke: "#1f77b4", "stroke-width": 1.5, "class": "as-loss-dot"});
      dot.appendChild(svg("title", null, snap.label));
      return g.appendChild(dot);
    });
    this.lossMark = g.appendChild(svg("line", {y1: T, y2: H - B, stroke: "#ff7f0e", "stroke-width": 2, "class": "as-loss-mark"}));
    this.lossFx = fx;
    p.appendChild(g);
    return p;
  };

  Page.prototype.key = function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;  // their own arrow keys
    var L = this.d.lesson;
    if (e.key === "ArrowRight") this.go(this.state.t + 1);
    else if (e.key === "ArrowLeft") this.go(this.state.t - 1);
    else if (e.key === "Home") this.go(0);
    else if (e.key === "End") this.go(Infinity);
    else if (e.key === "PageDown" && L && L.next) window.location.href = L.next;
    else if (e.key === "PageUp" && L && L.previous) window.location.href = L.previous;
    else if (this.onCandidate && /^[1-9]$/.test(e.key)) this.pick(Number(e.key) - 1);
    else return;
    e.preventDefault();
  };

  // The live mode (resources/web/live/page-live.js): another decoding's data drawn in place, the
  // view's choices kept; what the page did not build itself (the live panel) stays.
  Page.prototype.replace = function (data, t) {
    var root = this.root;
    Array.prototype.slice.call(root.children).forEach(function (c) {
      if (c.tagName !== "SCRIPT" && !c.classList.contains("as-live")) root.removeChild(c);
    });
    var self = this;  // what build() makes only for some data, made again or not at all
    ["beamItems", "beamList", "beamPanel", "compareBox", "encPanel", "lossDots", "lossMark", "snapshotLabel", "snapshotRange"]
      .forEach(function (k) { self[k] = null; });
    this.d = data;
    var st = this.state;
    st.t = Math.max(0, Math.min(data.target_tokens.length, typeof t === "number" ? t : data.target_tokens.length));
    st.hyp = data.beam && data.beam.length ? data.beam_hypothesis : -1;
    st.heatmap = "attention";
    st.snapshot = -1;
    this.build();
    this.draw();
  };
  // A candidate of the current step chosen (live mode: what-if from there).
  Page.prototype.pick = function (k) {
    var step = this.state.t && !this.other() ? this.run().steps[this.state.t - 1] : null;
    if (step && step.candidates[k]) this.onCandidate(this.state.t, step.candidates[k]);
  };

  Page.prototype.go = function (t) {
    this.state.t = Math.max(0, Math.min(this.length(), t));
    this.draw();
  };

  // Another hypothesis of the beam than the data's own, where one is chosen: the page then shows
  // its tokens and rows only (the steps, words, attribution and links are the data's hypothesis').
  Page.prototype.other = function () {
    var d = this.d, k = this.state.hyp;
    return d.beam && k >= 0 && k !== d.beam_hypothesis && d.beam[k] && d.beam[k].alpha ? d.beam[k] : null;
  };
  // What the data's steps follow, in words.
  Page.prototype.own = function () {
    return this.d.beam_hypothesis >= 0 ? msg("own_hypothesis", {k: this.d.beam_hypothesis + 1}) : msg("own_steps");
  };
  // How the rows came, as the app's figure says it beside them.
  Page.prototype.how = function () {
    var d = this.d, k = this.state.hyp;
    if (d.teacher_forced) return msg("how_given");
    if (d.beam && d.beam.length && (k >= 0 || d.beam_hypothesis >= 0)) return msg("how_beam", {k: (k >= 0 ? k : d.beam_hypothesis) + 1});
    var forced = d.steps.filter(function (s) { return s.forced; }).length;
    return forced ? msg("how_forced", {n: forced, of: d.steps.length}) : msg("how_decoded");
  };
  // The numbers on show: a training run's snapshot's own (its steps, states), else the data's.
  Page.prototype.run = function () {
    var d = this.d, k = this.state.snapshot, snap = d.timeline && k >= 0 ? d.timeline.snapshots[k] : null;
    var own = snap && snap.steps;
    return {alpha: snap ? snap.alpha : d.alpha, steps: own ? snap.steps : d.steps, encoder: own ? snap.encoder : d.encoder,
      key: own ? "snapshot " + k : "data"};
  };
  Page.prototype.length = function () {
    var o = this.other();
    return o ? o.tokens.length : this.d.target_tokens.length;
  };
  // A hypothesis chosen in the beam's list: its whole alignment, as the app's beam panel shows it;
  // the one on show chosen again: the data's own again (its steps, where no hypothesis is its own).
  Page.prototype.choose = function (k) {
    this.state.hyp = k === this.state.hyp ? this.d.beam_hypothesis : k;
    this.state.t = this.length();
    this.draw();
  };

  Page.prototype.lessonPanel = function (L) {
    var p = el("section", {"class": "as-panel as-lesson", "aria-label": msg("lesson")});
    p.appendChild(el("h2", null, msg("lesson_title", {title: L.title, page: L.page, pages: L.pages})));
    // The text as the app shows it, from its element tree; a page without one (an older export)
    // shows the plain text with its line breaks (docs/page-format.md: lesson markup).
    p.appendChild(L.markup ? markup(el("div", {"class": "as-lesson-text"}), L.markup) : el("p", {"class": "as-lesson-text"}, L.text));
    if (pictureSource(L.image)) p.appendChild(el("img", {src: L.image, alt: msg("lesson_picture")}));
    var nav = el("nav", {"class": "as-lesson-nav", "aria-label": msg("lesson_pages")});
    if (L.previous) nav.appendChild(el("a", {href: L.previous, rel: "prev"}, "\u2190 " + msg("lesson_previous")));
    if (L.index) nav.appendChild(el("a", {href: L.index}, msg("lesson_all")));
    if (L.next) nav.appendChild(el("a", {href: L.next, rel: "next"}, msg("lesson_next") + " \u2192"));
    p.appendChild(nav);
    return p;
  };

  Page.prototype.cardPanel = function () {
    var d = this.d;
    var p = el("section", {"class": "as-panel as-card-panel", "aria-label": msg("model")});
    var det = el("details");
    det.appendChild(el("summary", null, msg("model_named", {model: d.model})));
    var dl = el("dl", {"class": "as-card"});
    (d.model_card || []).forEach(function (f) {
      dl.appendChild(el("dt", null, f.label));
      dl.appendChild(el("dd", null, f.value));
    });
    det.appendChild(dl);
    p.appendChild(det);
    if (d.generator) p.appendChild(el("p", {"class": "as-note"}, msg(d.rounded ? "written_by_rounded" : "written_by", {generator: d.generator, decimals: d.rounded})));
    return p;
  };

  // The matrix on show: rows up to step t, the </s> column kept, dropped or renormalised, over
  // tokens or words (a source word's columns summed, a target word's rows averaged, as the app's
  // View > Words; </s> stays a column of its own there while it is shown).
  Page.prototype.matrix = function () {
    var d = this.d, st = this.state, t = st.t, other = this.other();
    var attribution = !other && st.heatmap !== "attention" && d.attribution;
    var tokens = other ? other.tokens : d.target_tokens;
    var full = other ? other.alpha : attribution ? d.attribution.scores
      : d.timeline && st.snapshot >= 0 ? d.timeline.snapshots[st.snapshot].alpha : d.alpha;
    var S = full.length ? full[0].length : (attribution ? d.attribution.source_tokens.length : d.source_tokens.length);
    var endCol = d.end_column === null || d.end_column === undefined || d.end_column >= S ? -1 : d.end_column;
    var drop = endCol >= 0 && st.end !== "keep";
    var renorm = drop && st.end === "renormalize" && !attribution;
    var cols = [];
    for (var i = 0; i < S; ++i) if (!(drop && i === endCol)) cols.push(i);
    var rows = [];
    for (var r = 0; r < t && r < full.length; ++r) {
      var row = cols.map(function (i) { return full[r][i]; });
      if (renorm) {
        var s = sum(row);
        if (s > 0) row = row.map(function (v) { return v / s; });
      }
      rows.push(row);
    }
    var colNames = axisLabels(d.source_tokens, d.source_labels), rowNames = axisLabels(tokens, other ? other.labels : d.target_labels);
    var m = {attribution: !!attribution, renormalized: renorm, dropped: drop, endCol: endCol, cols: cols,
      colLabels: cols.map(function (i) { return colNames[i]; }),
      rowLabels: rows.map(function (_, r) { return rowNames[r]; }),
      // The tokens behind labels that differ (a byte piece under its letter), for the readout.
      colTokens: cols.map(function (i) { return label(d.source_tokens[i]); }), rowTokens: rows.map(function (_, r) { return label(tokens[r]); }),
      rowSteps: rows.map(function (_, r) { return r; }),
      values: rows, total: tokens.length, allRows: rowNames};
    if (st.words && d.words && !other) m = this.mergeWords(m, cols);
    m.links = other ? [] : this.linkCells(m, cols);
    if (attribution) {
      var extent = d.attribution.extent || 1e-6;
      m.range = d.attribution.signed ? [-extent, extent] : [0, extent];
      m.stops = d.attribution.signed ? SCALES.diverging : SCALES[st.cmap];
    } else {
      m.range = [0, 1];
      m.stops = SCALES[st.cmap];
    }
    return m;
  };

  Page.prototype.mergeWords = function (m, cols) {
    var d = this.d;
    var sw = d.source_words, tw = d.target_words;
    var nS = d.words.source.length, nT = d.words.target.length;
    // words.source ends with "</s>" where the source has it: a column of its own while it is shown,
    // so that a row sums as the tokens' row does (as the app's View > Words).
    var nW = m.endCol >= 0 ? nS - 1 : nS;
    var endWord = m.endCol >= 0 && !m.dropped ? nW : -1;
    var width = endWord >= 0 ? nS : nW;
    var sums = [], counts = [], last = [];
    for (var w = 0; w < nT; ++w) { sums.push(null); counts.push(0); }
    m.values.forEach(function (row, r) {
      var w = tw[r];
      if (w === undefined || w < 0 || w >= nT) return;
      if (!sums[w]) sums[w] = new Array(width).fill(0);
      cols.forEach(function (i, k) {
        var c = sw[i] >= 0 && sw[i] < nW ? sw[i] : (i === m.endCol ? endWord : -1);
        if (c >= 0) sums[w][c] += row[k];
      });
      counts[w] += 1;
      last[w] = r;
    });
    var values = [], rowLabels = [], rowSteps = [], rowWords = [];
    for (w = 0; w < nT; ++w) {
      if (!sums[w]) continue;
      values.push(sums[w].map(function (v) { return v / counts[w]; }));
      rowLabels.push(d.words.target[w]);
      rowSteps.push(last[w]);
      rowWords.push(w);
    }
    m.values = values;
    m.rowLabels = rowLabels;
    m.rowSteps = rowSteps;
    m.rowWords = rowWords;
    m.nW = nW;
    m.colLabels = d.words.source.slice(0, width);
    m.words = true;
    m.allRows = d.words.target;
    return m;
  };

  // The cells View > Links marks, as [row, column] of m: each cell whose source and target words
  // the rule links (over words, the words' cell; over tokens, every cell of the two words'
  // pieces). None without a rule (data.link_rule): data.links then holds attention's argmax.
  Page.prototype.linkCells = function (m, cols) {
    var d = this.d;
    if (!d.link_rule || !d.links) return [];
    var linked = {};
    d.links.split(/\s+/).forEach(function (p) { if (p) linked[p] = true; });
    var cells = [];
    if (m.words) {
      m.rowWords.forEach(function (w, r) {
        for (var c = 0; c < m.nW; ++c) if (linked[c + "-" + w]) cells.push([r, c]);
      });
    } else {
      m.values.forEach(function (_, r) {
        var t = d.target_words[r];
        if (t === undefined || t < 0) return;
        cols.forEach(function (i, c) {
          var s = d.source_words[i];
          if (s !== undefined && s >= 0 && linked[s + "-" + t]) cells.push([r, c]);
        });
      });
    }
    return cells;
  };

  Page.prototype.draw = function () {
    var d = this.d, st = this.state, T = this.length(), other = this.other();
    this.homeButton.disabled = this.backButton.disabled = st.t === 0;
    this.stepButton.disabled = this.endButton.disabled = st.t >= T;
    this.stepLabel.textContent = msg("step_of", {t: st.t, of: T});
    var m = this.matrix();
    this.current = m;
    // The sides are named by the axis titles (the figure's), so the title stays one line.
    this.heatmapTitle.textContent = m.attribution ? msg(m.words ? "title_attribution_words" : "title_attribution", {method: methodName(d.attribution.method)})
      : msg(m.words ? "title_attention_words" : "title_attention");
    this.sumNote.textContent = this.sumText(m);
    this.xTitle.textContent = m.words ? side2(msg("axis_source_words"), d.source_language, msg("axis_merged")) : side(msg("axis_source"), d.source_language);
    this.yTitle.textContent = side2(msg("axis_target"), d.target_language, this.how()) + (m.words ? msg("axis_rows_averaged") : "");
    // The room the maps have, read once the lines above them are written (they can move them) and
    // before anything else changes: each read after a change lays the page out again
    var room = heatmapRoom(this.heatmapBox), compareRoom = this.compareBox ? heatmapRoom(this.compareBox) : null;
    var self = this;
    var g = this.drawHeatmap(this.heatmapBox, m, function (r, c) { self.hover(r, c); }, room);
    this.xTitle.style.paddingLeft = g.left + "px";
    if (this.encPanel) this.drawEncoder(m, g);
    if (this.lossMark) {
      var snap = d.timeline.snapshots[st.snapshot], x = typeof snap.update === "number" ? this.lossFx(snap.update) : -10;
      this.lossMark.setAttribute("x1", x);
      this.lossMark.setAttribute("x2", x);
      this.lossDots.forEach(function (dot, k) { if (dot) dot.setAttribute("fill", k === st.snapshot ? "#ff7f0e" : "#fff"); });
    }
    this.wordsBox.disabled = !!other;  // the data's words are its own hypothesis'
    if (d.attribution) this.heatmapSelect.disabled = !!other;
    if (this.beamItems) {
      this.translationText.textContent = other ? other.text : d.translation;
      this.beamItems.forEach(function (li, k) {
        var on = k === (st.hyp >= 0 ? st.hyp : d.beam_hypothesis);
        li.classList.toggle("as-shown", on);
        var b = li.querySelector("button");
        if (b) b.setAttribute("aria-pressed", String(on));
        li.querySelector(".as-shown-mark").textContent = on ? "  \u2190 " + msg("beam_shown") : "";
      });
    }
    if (this.snapshotLabel) this.snapshotLabel.textContent = d.timeline.snapshots[st.snapshot].label;
    if (this.compareBox) {
      // Model B's whole decoding of the sentence, on the same colour scale.
      var b = d.comparison;
      this.drawHeatmap(this.compareBox, {colLabels: axisLabels(b.source_tokens, b.source_labels), values: b.alpha, range: [0, 1],
        stops: SCALES[st.cmap], total: b.target_tokens.length, allRows: axisLabels(b.target_tokens, b.target_labels)}, null, compareRoom);
    }
    this.drawColorbar(m);
    this.drawCandidates();
    this.drawExplain();
    // Scrolled last: the one layout a step needs, done once every change is made
    if (g.newest) this.follow(this.heatmapBox, g, g.newest[0], g.newest[1]);
    if (this.encBox && this.encBox.asDrawn) this.encBox.scrollLeft = this.heatmapBox.scrollLeft;
  };

  Page.prototype.sumText = function (m) {
    var links = m.links && m.links.length ? " " + msg("sum_links", {rule: this.d.link_rule}) : "";
    return this.cellText(m) + links;
  };

  Page.prototype.cellText = function (m) {
    if (m.attribution) return msg((this.d.attribution.signed ? "cells_signed" : "cells") + (m.dropped ? "_dropped" : ""), {method: methodName(this.d.attribution.method)}) +
      " " + msg("sigma");
    var w = m.words ? " " + msg("words_note") : "";
    if (m.renormalized) return msg("rows_renormalised", {words: w}) + " " + msg("sigma");
    if (m.dropped) return msg("rows_dropped", {words: w}) + " " + msg("sigma");
    return msg("rows_sum", {words: w}) + " " + msg("sigma");
  };


  // The heatmap's geometry in `box`: cells that fit the room there is (the box's width, and in a
  // page of its own the window's height below the box; a frame a notebook sizes to its content
  // gets a fixed height, or the two would grow each other), between CELL_MIN and CELL_MAX pixels,
  // with labels in a font that fits the cells (upright names where the columns are narrow).
  var CELL_MIN = 9, CELL_MAX = 40, LABEL_MAX_ROOM = 170;
  // The room the heatmap has in `box`: its width, and the height it may take.
  // Below a long lesson text (and the live panel) the room under the box is a strip: where less
  // than 40 % of a window is left, the matrix stays there only where its cells keep READABLE
  // pixels (text and matrix in view together, as a projector needs); otherwise (23 rows were
  // 13-pixel cells at 1024x768) it takes `tall`, a window's height, and the page scrolls to it (a
  // lesson page does, to the panel it frames: bringIntoView).
  var READABLE = 16, TALL_CELL = 24;
  function heatmapRoom(box) {
    var width = Math.max(200, (box.clientWidth || 600) - 10);
    if (window.self !== window.top) return {width: width, height: 640};
    var h = window.innerHeight, below = h - (box.getBoundingClientRect().top + window.scrollY) - 16;
    if (below >= 0.4 * h) return {width: width, height: Math.max(320, below)};
    return {width: width, height: Math.max(160, below), tall: Math.max(320, h - 90)};
  }
  function heatmapGeometry(m, space) {
    var g = heatmapFit(m, space.width, space.height);
    if (!(space.tall > space.height) || g.cell >= READABLE) return g;
    var tall = heatmapFit(m, space.width, space.tall);
    // no taller than its rows need at the cell the width leaves them, at most TALL_CELL pixels:
    // the more of the lesson's text stays in view
    var need = tall.top + 10 + tall.nR * Math.min(tall.cell, TALL_CELL);
    return need < space.tall ? heatmapFit(m, space.width, Math.max(space.height, need)) : tall;
  }
  function heatmapFit(m, width, height) {
    var nC = Math.max(1, m.colLabels.length), nR = Math.max(1, m.allRows.length);
    var g = {font: 12, upright: false, height: height, nC: nC, nR: nR};
    for (var pass = 0; pass < 2; ++pass) {
      var colW = 0, rowW = 0, room = Math.min(LABEL_MAX_ROOM, Math.max(60, width * 0.3));
      m.colLabels.forEach(function (l) { colW = Math.max(colW, textWidth(l, g.font)); });
      m.allRows.forEach(function (l) { rowW = Math.max(rowW, textWidth(l, g.font)); });
      g.labelRoom = room;
      g.left = Math.ceil(Math.min(rowW, room)) + 10;
      g.right = Math.ceil(textWidth("0.000", g.font)) + 14;
      g.top = Math.ceil(Math.min(colW, LABEL_MAX_ROOM) * (g.upright ? 1 : 0.75)) + g.font + 4;
      // under the cells: the frame's 4 pixels, the grid's 4 of padding and the box's border (2)
      var fit = Math.min((width - g.left - g.right) / nC, (height - g.top - 10) / nR);
      g.cell = Math.floor(Math.max(CELL_MIN, Math.min(CELL_MAX, fit)));
      if (pass === 0 && g.cell < 16) {
        // Narrow columns: names upright (one cell apart, not 0.7 of one) in a font that fits a cell.
        g.upright = true;
        g.font = Math.max(8, Math.min(12, g.cell - 1));
      }
    }
    g.W = nC * g.cell;
    g.H = nR * g.cell;
    return g;
  }

  // A heatmap into `box`: the rows of m.values, each row's label (m.allRows) shown once its row is
  // (a lesson does not give the next token away), the newest row framed with its peak;
  // `onHover(r, c)` for a cell under the pointer or tapped. The column and row labels are pinned
  // while the cells scroll. A step only adds or removes rows where nothing else changed.
  // The cells are painted on a canvas under the SVG (sums, links, frame and peak): a cell of the
  // SVG is laid out and painted again at every step, however many rows there are. Each keeps its
  // <rect> (its row, column, value and colour, for the page's readers and tests), not drawn.
  Page.prototype.drawHeatmap = function (box, m, onHover, space) {
    var g = heatmapGeometry(m, space || heatmapRoom(box)), st = this.state;
    var key = JSON.stringify([g, m.colLabels, m.allRows, m.range, m.stops, m.attribution, m.renormalized, m.words,
      st.heatmap, st.end, st.cmap, st.snapshot, st.hyp, !!onHover, window.devicePixelRatio || 1]);
    var drawn = box.asDrawn;
    // Over words a row's values change as its word's pieces come: drawn whole.
    if (!drawn || drawn.key !== key || m.words) drawn = this.heatmapFrame(box, m, g, key, onHover);
    var n = m.values.length, cell = g.cell, lo = m.range[0], span = m.range[1] - m.range[0] || 1;
    var links = {};
    (m.links || []).forEach(function (rc) { (links[rc[0]] = links[rc[0]] || []).push(rc[1]); });
    var paint = drawn.paint, scale = drawn.scale;
    if (drawn.rows.length > n) paint.clearRect(0, n * cell * scale, paint.canvas.width, paint.canvas.height);
    while (drawn.rows.length > n) drawn.rows.pop().remove();
    for (var r = drawn.rows.length; r < n; ++r) {
      var group = svg("g", {"class": "as-row", "data-row": r});
      var top = Math.round(r * cell * scale), high = Math.round((r + 1) * cell * scale) - top;  // in device pixels
      m.values[r].forEach(function (v, c) {
        var fill = colour(m.stops, (v - lo) / span), x = Math.round(c * cell * scale);
        paint.fillStyle = fill;
        paint.fillRect(x, top, Math.round((c + 1) * cell * scale) - x, high);
        group.appendChild(svg("rect", {x: c * cell, y: r * cell, width: cell, height: cell,
          fill: fill, "class": "as-cell", "data-row": r, "data-col": c, "data-value": v}));
      });
      group.appendChild(svg("text", {x: g.W + 6, y: r * cell + cell / 2 + g.font / 3, "class": "as-sum as-row-sum"}, fixed(sum(m.values[r]), 3)));
      (links[r] || []).forEach(function (c) {
        // A ringed dot, legible on every colour of the map (the app's View > Links).
        group.appendChild(svg("circle", {cx: c * cell + cell / 2, cy: r * cell + cell / 2, r: Math.max(3, cell * 0.16),
          fill: "#ffffff", stroke: "#000000", "stroke-width": 1.5, "class": "as-link", "data-row": r, "data-col": c, "pointer-events": "none"}));
      });
      drawn.cells.insertBefore(group, drawn.frame);
      drawn.rows.push(group);
    }
    // only the labels whose row came or went: setting an attribute restyles its element, even to its value
    for (var k = Math.min(n, drawn.shown || 0); k < Math.max(n, drawn.shown || 0); ++k)
      if (drawn.labels[k]) drawn.labels[k].setAttribute("visibility", k < n ? "visible" : "hidden");
    drawn.shown = n;
    drawn.cells.setAttribute("aria-label", msg("heatmap_rows", {n: n, of: m.allRows.length}));
    // The newest row framed, and its peak (the app's highlight); a uniform row has no peak.
    var last = n && onHover ? m.values[n - 1] : null;
    var p = !last || last.every(function (v) { return Math.abs(v - last[0]) < 1e-9; }) ? -1 : argmax(last);
    drawn.frame.setAttribute("visibility", last ? "visible" : "hidden");
    drawn.peak.setAttribute("visibility", p >= 0 ? "visible" : "hidden");
    if (!n) box.scrollTop = box.scrollLeft = 0;  // step 0: the map's start, where the first row comes
    if (!last) return g;
    drawn.frame.setAttribute("y", (n - 1) * cell);
    drawn.peak.setAttribute("x", p * cell + 2);
    drawn.peak.setAttribute("y", (n - 1) * cell + 2);
    drawn.peak.setAttribute("data-row", n - 1);
    drawn.peak.setAttribute("data-col", p);
    g.newest = [n - 1, p];  // brought into view by draw(), once everything is drawn
    return g;
  };

  // The heatmap's frame: pinned column labels (and Σ) and row labels around the cells' SVG, in a
  // grid that the box scrolls; drawHeatmap adds the cells' rows.
  Page.prototype.heatmapFrame = function (box, m, g, key, onHover) {
    var self = this, cell = g.cell, font = g.font;
    if (window.self === window.top) box.style.maxHeight = g.height + "px";
    var grid = el("div", {"class": "as-hm"});
    grid.style.gridTemplateColumns = g.left + "px " + (g.W + g.right) + "px";
    grid.style.gridTemplateRows = g.top + "px " + (g.H + 4) + "px";
    var corner = svg("svg", {"class": "as-hm-pin as-hm-corner", width: g.left, height: g.top, "aria-hidden": "true"});
    var cols = svg("svg", {"class": "as-hm-pin as-hm-cols", width: g.W + g.right, height: g.top, "font-size": font, "aria-hidden": "true"});
    m.colLabels.forEach(function (l, i) {
      var x = i * cell + cell / 2 + (g.upright ? font / 3 : 0), y = g.top - 4, name = shorten(l, font, LABEL_MAX_ROOM);
      var t = svg("text", {x: x, y: y, transform: "rotate(" + (g.upright ? -90 : -45) + " " + x + " " + y + ")", "class": "as-col-label"}, name);
      if (name !== l) t.appendChild(svg("title", null, l));
      cols.appendChild(t);
    });
    cols.appendChild(svg("text", {x: g.W + 6, y: g.top - 4, "class": "as-sum"}, "\u03a3"));
    var rows = svg("svg", {"class": "as-hm-pin as-hm-rows", width: g.left, height: g.H + 4, "font-size": font, "aria-hidden": "true"});
    var labels = m.allRows.map(function (l, r) {
      var name = shorten(l, font, g.labelRoom);
      var t = svg("text", {x: g.left - 6, y: r * cell + cell / 2 + font / 3, "text-anchor": "end", "class": "as-row-label", visibility: "hidden"}, name);
      if (name !== l) t.appendChild(svg("title", null, l));
      return rows.appendChild(t);
    });
    // The cells' canvas, and the SVG over it in the same grid cell
    var canvas = el("canvas", {"class": "as-hm-cells", "aria-hidden": "true"}), scale = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(g.W * scale));
    canvas.height = Math.max(1, Math.round(g.H * scale));
    canvas.style.width = g.W + "px";
    canvas.style.height = g.H + "px";
    var cells = svg("svg", {"class": "as-heatmap", width: g.W + g.right, height: g.H + 4, "font-size": font, role: "img"});
    cells.appendChild(svg("rect", {x: 0, y: 0, width: g.W, height: g.H, fill: "none", stroke: "#c8c8c8"}));
    var frame = cells.appendChild(svg("rect", {x: 0, y: 0, width: g.W, height: cell, fill: "none", stroke: "#ff7f0e", "stroke-width": 2,
      "class": "as-row-frame", visibility: "hidden"}));
    var peak = cells.appendChild(svg("rect", {x: 0, y: 0, width: cell - 4, height: cell - 4, fill: "none", stroke: "#d62728",
      "stroke-width": 3, "class": "as-peak", visibility: "hidden"}));
    if (onHover) {
      // A cell's weight under the mouse, and where a finger taps it (a touch screen has no hover).
      var at = function (e) {
        var c = e.target;
        if (c && c.getAttribute && c.getAttribute("class") === "as-cell") {  // an event sent to a cell's <rect>
          onHover(Number(c.getAttribute("data-row")), Number(c.getAttribute("data-col")));
          return;
        }
        var r = cells.getBoundingClientRect(), col = Math.floor((e.clientX - r.left) / cell), row = Math.floor((e.clientY - r.top) / cell);
        if (col >= 0 && col < g.nC && row >= 0 && row < box.asDrawn.rows.length) onHover(row, col);
      };
      cells.addEventListener("mouseover", at);
      cells.addEventListener("click", at);
      cells.addEventListener("mouseleave", function () { self.readout.textContent = self.readoutHint(); });
    }
    [corner, cols, rows, canvas, cells].forEach(function (e) { grid.appendChild(e); });
    box.textContent = "";
    box.appendChild(grid);
    box.asDrawn = {key: key, cells: cells, frame: frame, peak: peak, labels: labels, rows: [], paint: canvas.getContext("2d"), scale: scale};
    return box.asDrawn;
  };

  // Where the box scrolls, the newest row and its peak brought into view beside the pinned
  // labels (the app's heatmap follows the step too).
  Page.prototype.follow = function (box, g, r, c) {
    if (box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1) return;
    var top = g.top + r * g.cell, bottom = top + g.cell + 6;
    if (bottom - box.scrollTop > box.clientHeight) box.scrollTop = bottom - box.clientHeight;
    if (top - box.scrollTop < g.top) box.scrollTop = top - g.top;
    if (c < 0) return;
    var left = g.left + c * g.cell, right = left + g.cell + 6;
    if (right - box.scrollLeft > box.clientWidth) box.scrollLeft = right - box.clientWidth;
    if (left - box.scrollLeft < g.left) box.scrollLeft = left - g.left;
  };

  // The encoder panel on the heatmap's columns (m.cols, cells of g.cell px, after g.left px of row
  // labels): h_i drawn once per layout; a step redraws only the c_t / s_t columns.
  Page.prototype.drawEncoder = function (m, g) {
    var d = this.d, st = this.state, run = this.run(), enc = run.encoder, box = this.encBox;
    var other = this.other();
    if (!enc || m.words) {
      box.textContent = "";
      box.asDrawn = null;
      this.encYTitle.textContent = "";
      this.encNote.textContent = m.words ? msg("encoder_words") : "";
      return;
    }
    var E = enc.size, states = enc.decoded || (enc.decoded = vector(enc.states));
    var S = Math.floor(states.length / E), cols = m.cols.filter(function (i) { return i < S; });
    var H = Math.max(96, Math.min(200, 2 * E)), top = 18, cw = Math.max(10, Math.floor((g.right - 10) / 2)), sideW = 2 * cw + 8;
    var dpr = window.devicePixelRatio || 1;
    var key = JSON.stringify([g.left, g.cell, g.W, cols, E, H, sideW, run.key]);
    if (!box.asDrawn || box.asDrawn.key !== key) {
      var grid = el("div", {"class": "as-enc"});
      grid.style.gridTemplateColumns = g.left + "px " + g.W + "px " + sideW + "px";
      // Left: the state's halves (a bidirectional encoder: forward on top, backward below).
      var left = svg("svg", {width: g.left, height: top + H, "class": "as-enc-pin as-enc-left", "aria-hidden": "true", "font-size": 11});
      var halves = d.decoder && d.decoder.bidirectional && E % 2 === 0 ? [[msg("forward") + " \u2192", 0.25], ["\u2190 " + msg("backward"), 0.75]] : [["h", 0.5]];
      halves.forEach(function (h) { left.appendChild(svg("text", {x: g.left - 6, y: top + H * h[1] + 4, "text-anchor": "end"}, h[0])); });
      var cells = el("canvas", {"class": "as-enc-cells", role: "img",
        "aria-label": msg("encoder_cells", {columns: cols.length, numbers: E})});
      cells.width = Math.max(1, Math.round(g.W * dpr));
      cells.height = Math.round(H * dpr);
      cells.style.width = g.W + "px";
      cells.style.height = H + "px";
      cells.style.marginTop = top + "px";
      // One pixel a number, scaled up without smoothing: E numbers over H pixels at any E.
      var img = new ImageData(Math.max(1, cols.length), E), px = img.data;
      cols.forEach(function (i, c) {
        for (var k = 0; k < E; ++k) {
          var col = diverging(states[i * E + k]), o = 4 * (k * cols.length + c);
          px[o] = col[0]; px[o + 1] = col[1]; px[o + 2] = col[2]; px[o + 3] = 255;
        }
      });
      var ctx = cells.getContext("2d"), tmp = document.createElement("canvas");
      tmp.width = img.width; tmp.height = E;
      tmp.getContext("2d").putImageData(img, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(tmp, 0, 0, cells.width, cells.height);
      if (halves.length === 2) {
        ctx.fillStyle = "#000";
        ctx.fillRect(0, Math.round(cells.height / 2 - dpr), cells.width, Math.max(1, Math.round(1.5 * dpr)));
      }
      var sideBox = el("div", {"class": "as-enc-pin as-enc-side"});
      var labels = sideBox.appendChild(el("div", {"class": "as-enc-side-labels"}));
      labels.style.height = top + "px";
      var cLabel = labels.appendChild(el("span")), sLabel = labels.appendChild(el("span"));
      cLabel.style.width = sLabel.style.width = cw + "px";
      var sideCanvas = sideBox.appendChild(el("canvas", {"class": "as-enc-now", role: "img"}));
      sideCanvas.width = Math.round((2 * cw + 4) * dpr);
      sideCanvas.height = Math.round(H * dpr);
      sideCanvas.style.width = (2 * cw + 4) + "px";
      sideCanvas.style.height = H + "px";
      // A number's value under the pointer or a tap (the app's encoder panel tells it too).
      var self = this, show = function (e) {
        var r = cells.getBoundingClientRect(), c = Math.floor((e.clientX - r.left) / g.cell), k = Math.floor((e.clientY - r.top) / H * E);
        if (c < 0 || c >= cols.length || k < 0 || k >= E) return;
        self.encNote.textContent = msg("encoder_value", {token: m.colLabels[c], k: k + 1, of: E, value: prose(fixed(states[cols[c] * E + k], 2))});
      };
      cells.addEventListener("mousemove", show);
      cells.addEventListener("click", show);
      [left, cells, sideBox].forEach(function (e) { grid.appendChild(e); });
      box.textContent = "";
      box.appendChild(grid);
      box.asDrawn = {key: key, side: sideCanvas, c: cLabel, s: sLabel, cw: cw, H: H};
      this.encYTitle.textContent = msg("numbers", {n: E});
    }
    // c_t and s_t of the step on show (c and s_0 before the first).
    var a = box.asDrawn, t = st.t, step = t && !other ? run.steps[t - 1] : null;
    a.c.textContent = "";
    a.s.textContent = "";
    a.c.appendChild(step ? rich("span", ["c", ["sub", "t"]]) : document.createTextNode("c"));
    a.s.appendChild(step ? rich("span", ["s", ["sub", "t"]]) : rich("span", ["s", ["sub", "0"]]));
    var context = step && step.context ? vector(step.context) : new Float32Array(0);
    var state = other && t ? new Float32Array(0) : step ? (step.state ? vector(step.state) : new Float32Array(0)) : vector(enc.initial_state);
    var n = Math.max(E, state.length, 1), sctx = a.side.getContext("2d"), sw = a.side.width, sh = a.side.height;
    sctx.clearRect(0, 0, sw, sh);
    var simg = new ImageData(2, n), sp = simg.data;
    [context, state].forEach(function (v, c) {
      for (var k = 0; k < v.length; ++k) {
        var col = diverging(v[k]), o = 4 * (k * 2 + c);
        sp[o] = col[0]; sp[o + 1] = col[1]; sp[o + 2] = col[2]; sp[o + 3] = 255;
      }
    });
    var tmp2 = document.createElement("canvas");
    tmp2.width = 2; tmp2.height = n;
    tmp2.getContext("2d").putImageData(simg, 0, 0);
    sctx.imageSmoothingEnabled = false;
    var cwp = a.cw * (sw / (2 * a.cw + 4));
    sctx.drawImage(tmp2, 0, 0, 1, n, 0, 0, cwp, sh);
    sctx.drawImage(tmp2, 1, 0, 1, n, sw - cwp, 0, cwp, sh);
    a.side.setAttribute("aria-label", step ? msg("side_step", {t: st.t}) : msg("side_first"));
    this.encNote.textContent = "";
    var ct = seq("c", ["sub", "t"]), st_ = seq("s", ["sub", "t"]);
    this.encNote.appendChild(other ? rich("span", msgParts("encoder_other", {c: ct, s: st_, own: this.own()}))
      : rich("span", (st.t ? [] : msgParts("encoder_before", {s0: seq("s", ["sub", "0"])}).concat([" "])).concat(msgParts("encoder_colours",
        {formula: seq("c", ["sub", "t"], " = \u03a3", ["sub", "i"], " \u03b1", ["sub", "t,i"], " h", ["sub", "i"])}))));
  };

  Page.prototype.readoutHint = function () { return msg("readout_hint"); };

  Page.prototype.hover = function (r, c) {
    var m = this.current, v = m.values[r][c];
    var what = m.attribution ? methodName(this.d.attribution.method) : m.renormalized ? msg("alpha_renormalised") : "\u03b1";
    var exact = this.d.rounded ? fixed(v, this.d.rounded) : String(v);
    var named = function (labels, tokens, k) {
      return !m.words && tokens && tokens[k] !== labels[k] ? labels[k] + " (" + tokens[k] + ")" : labels[k];
    };
    this.readout.textContent = named(m.rowLabels, m.rowTokens, r) + " \u2192 " + named(m.colLabels, m.colTokens, c) + ": " + what + " = " + exact;
  };

  Page.prototype.drawColorbar = function (m) {
    // The scale's title, as the figure's (ui/AlignmentFigure.cpp scaleTitle).
    var title = m.attribution ? (this.d.attribution.signed ? msg("scale_signed", {method: methodName(this.d.attribution.method)}) : methodName(this.d.attribution.method))
      : this.d.decoder && this.d.decoder.attention === "none" ? msg("scale_uniform") : msg("scale_attention");
    var key = JSON.stringify([m.range, m.stops, title]);
    if (this.colorbar.asDrawn === key && this.colorbar.firstChild) return;  // a step changes neither
    this.colorbar.asDrawn = key;
    var W = 260, H = 58, g = svg("svg", {"class": "as-colorbar", width: W, height: H, role: "img",
      "aria-label": msg("colour_bar", {from: m.range[0], to: m.range[1]})});
    var id = "as-grad-" + Page.count + "-" + (Page.grads = (Page.grads || 0) + 1);
    var defs = svg("defs"), grad = svg("linearGradient", {id: id});
    m.stops.forEach(function (c, k) { grad.appendChild(svg("stop", {offset: k / (m.stops.length - 1), "stop-color": c})); });
    defs.appendChild(grad);
    g.appendChild(defs);
    g.appendChild(svg("rect", {x: 10, y: 4, width: W - 20, height: 14, fill: "url(#" + id + ")", stroke: "#888"}));
    [0, 0.5, 1].forEach(function (f) {
      var v = m.range[0] + f * (m.range[1] - m.range[0]);
      g.appendChild(svg("text", {x: 10 + f * (W - 20), y: 34, "text-anchor": f === 0 ? "start" : f === 1 ? "end" : "middle"},
        Math.abs(v) < 1e-12 ? "0" : Math.abs(v) >= 0.1 ? fixed(v, 2) : v.toPrecision(2)));
    });
    g.appendChild(svg("text", {x: W / 2, y: 53, "text-anchor": "middle", "class": "as-scale-title"}, title));
    this.colorbar.textContent = "";
    this.colorbar.appendChild(g);
  };

  Page.prototype.drawCandidates = function () {
    var d = this.d, t = this.state.t, list = this.candList;
    list.textContent = "";
    if (!t) {
      this.candTitle.textContent = msg("candidates");
      list.appendChild(el("li", {"class": "as-message"}, msg("press_step")));
      return;
    }
    var step = this.run().steps[t - 1];
    this.candTitle.textContent = msg("candidates_at", {t: t});
    if (this.other()) {
      list.appendChild(el("li", {"class": "as-message"}, msg("recorded_along", {own: this.own()})));
      return;
    }
    if (!step) {
      list.appendChild(el("li", {"class": "as-message"}, msg("candidates_missing")));
      return;
    }
    var chosenShown = false, self = this;
    step.candidates.forEach(function (c, k) {
      var chosen = k === step.chosen;
      chosenShown = chosenShown || chosen;
      var li = el("li", {"class": chosen ? "as-chosen" : ""});
      li.appendChild(el("span", null, (k + 1) + "."));
      var name = label(c.token) + (chosen ? "  " + msg(step.forced ? "cand_forced" : "cand_chosen") : "");
      var token = li.appendChild(self.onCandidate ? el("button", {type: "button", "class": "as-cand-token",
        title: msg("cand_what_if", {k: k + 1})}, name) : el("span", {"class": "as-cand-token"}, name));
      if (self.onCandidate) token.addEventListener("click", function () { self.pick(k); });
      li.appendChild(el("span", {"class": "as-cand-p"}, fixed(c.p, 3)));
      var bar = el("span", {"class": "as-cand-bar"});
      bar.style.width = Math.max(1, Math.round(c.p * 100)) + "%";
      li.appendChild(bar);
      list.appendChild(li);
    });
    if (!chosenShown) {
      var li = el("li", {"class": "as-chosen"});
      li.appendChild(el("span", null, "\u2013"));
      li.appendChild(el("span", {"class": "as-cand-token"}, label(step.token) + (step.forced ? "  " + msg("cand_forced_outside", {k: step.candidates.length}) : "")));
      li.appendChild(el("span", {"class": "as-cand-p"}, fixed(step.p, 3)));
      list.appendChild(li);
    }
  };

  // Bars over labelled categories, the highlighted one orange (the app's Step explained charts).
  // The margins are measured from the labels (a value's minus sign, a token's rotated name), so
  // every label stays inside the chart at any width; a name longer than LABEL_MAX is shortened.
  var LABEL_MAX = 72, SLANT = 50 * Math.PI / 180;
  function bars(labels, values, colour, highlight) {
    var n = values.length, W = 340, H0 = 90, px = 10;
    if (!n) return svg("svg", {"class": "as-chart", width: 0, height: 0});
    var lo = Math.min(0, Math.min.apply(null, values)), hi = Math.max(0, Math.max.apply(null, values));
    var ticks = [fixed(hi, 2)].concat(lo < 0 ? [fixed(lo, 2)] : []);
    var axis = Math.ceil(Math.max.apply(null, ticks.map(function (v) { return textWidth(v, px); }))) + 6;
    var names = labels.map(function (l) { return shorten(String(l), px, LABEL_MAX); });
    var widths = names.map(function (l) { return textWidth(l, px); });
    // A name rotated about its end reaches cos(SLANT) x its width left of its bar (and its glyphs
    // about a font size more), sin(SLANT) x its width below.
    var left = axis, w = (W - left - 2) / n;
    for (var pass = 0; pass < 2; ++pass) {
      widths.forEach(function (tw, i) { left = Math.max(left, Math.cos(SLANT) * tw + px - (i + 0.5) * w + 2); });
      w = (W - left - 2) / n;
    }
    var bottom = Math.ceil(Math.sin(SLANT) * Math.max.apply(null, widths) + px * 1.4) + 8, H = H0 + bottom;
    var span = hi - lo || 1, y0 = 6 + (H0 - 6) * hi / span;
    var g = svg("svg", {"class": "as-chart", viewBox: "0 0 " + W + " " + H, width: "100%", role: "img",
      "aria-label": msg("bar_chart", {n: n})});
    g.appendChild(svg("line", {x1: left - 2, x2: W - 2, y1: y0, y2: y0, stroke: "#999"}));
    g.appendChild(svg("text", {x: axis - 4, y: 12, "text-anchor": "end", "class": "as-tick"}, ticks[0]));
    if (lo < 0) g.appendChild(svg("text", {x: axis - 4, y: H0, "text-anchor": "end", "class": "as-tick"}, ticks[1]));
    var every = Math.max(1, Math.ceil(n * 14 / (W - left)));
    values.forEach(function (v, i) {
      var h = (H0 - 6) * Math.abs(v) / span;
      g.appendChild(svg("rect", {x: left + i * w + w * 0.15, y: v >= 0 ? y0 - h : y0, width: w * 0.7, height: Math.max(0.5, h),
        fill: i === highlight ? "#ff7f0e" : colour}, null));
      if (i === highlight || (i % every === 0 && (highlight < 0 || Math.abs(i - highlight) >= every))) {
        var x = left + i * w + w / 2, y = H0 + 10;
        var t = svg("text", {x: x, y: y, transform: "rotate(-50 " + x + " " + y + ")", "text-anchor": "end", "class": "as-bar-label"}, names[i]);
        if (names[i] !== String(labels[i])) t.appendChild(svg("title", null, labels[i]));
        g.appendChild(t);
      }
    });
    return g;
  }

  // Step explained with the model's numbers, in the order and words of the app's panel
  // (ui/StepExplainedPanel.cpp) for this decoder kind.
  Page.prototype.drawExplain = function () {
    var d = this.d, t = this.state.t, body = this.explainBody, dec = d.decoder || {};
    body.textContent = "";
    if (!t) {
      body.appendChild(rich("p", msgParts("explain_press", {press: ["b", msg("explain_press_bold")]})));
      return;
    }
    var run = this.run(), step = run.steps[t - 1], parts = {};
    if (this.other()) {
      body.appendChild(el("p", null, msg("explain_other", {own: this.own()})));
      return;
    }
    if (!step) {
      body.appendChild(el("p", null, msg("explain_missing")));
      return;
    }
    var x = step.explain || {};
    var after = !!dec.attention_after_cell, conditional = !!dec.conditional_decoder && !after;
    var cell = (dec.cell || "gru").toUpperCase(), att = dec.attention || "additive";
    var prev = t >= 2 ? label(run.steps[t - 2].token) : "<s>";
    var tokens = d.source_tokens.map(label);
    var n = function (k) { return String(after ? (k === 5 ? 1 : k <= 4 ? k + 1 : k) : k); };
    var q = after ? ["s", ["sub", "t"]] : conditional ? ["s'", ["sub", "t"]] : ["s", ["sub", "t-1"]];
    var num = function (v, p) { return prose(fixed(v, p === undefined ? 3 : p)); };  // numbers in prose: the language's decimal sign
    var head = function (k, key) { return ["b", msg(key, {n: n(k)})]; };

    if (step.agreement && d.attribution) {
      var a = step.agreement;
      parts.attribution = rich("p", [["b", msg("explain_attribution")], " (" + methodName(d.attribution.method) + "): " + methodDescription(d.attribution), " "].concat(
        msgParts(a.same_top ? "explain_agreement_same" : "explain_agreement_different", {rho: ["b", num(a.spearman, 2)], top: tokens[a.top],
          attention: tokens[a.peak], method: methodName(d.attribution.method), js: ["b", num(a.jensen_shannon, 2)]})));
    }
    parts.query = after
      ? rich("p", msgParts("explain_query_after", {head: head(1, "explain_query"), s: seq("s", ["sub", t]), size: x.query_size, norm: num(x.query_norm)}))
      : conditional
        ? rich("p", msgParts("explain_query_conditional", {head: head(1, "explain_query"),
            formula: seq("s'", ["sub", t], " = " + cell + "(s", ["sub", t - 1], ", emb(", ["i", prev], "))"), norm: num(x.query_norm), word: ["i", prev]}))
        : rich("p", msgParts("explain_query_previous", {head: head(1, "explain_query"), s: seq("s", ["sub", t - 1]), size: x.query_size,
            norm: num(x.query_norm)}));
    if (typeof x.query_projection_norm === "number" && att === "additive")
      parts.query.appendChild(rich("span", [" "].concat(msgParts("explain_projected", {q: seq("W ", q[0], q[1]), norm: num(x.query_projection_norm)}))));

    var formula = att === "dot" ? ["e", ["sub", "t,i"], " = ", q[0], q[1], ["sup", "T"], " h", ["sub", "i"]]
      : att === "general" ? ["e", ["sub", "t,i"], " = ", q[0], q[1], ["sup", "T"], " W", ["sub", "a"], " h", ["sub", "i"]]
      : att === "mlp" ? msgParts("explain_mlp", {formula: seq("e", ["sub", "t,i"], " = MLP([h", ["sub", "i"], "; ", q[0], q[1], "])")})
      : ["e", ["sub", "t,i"], " = v", ["sup", "T"], " tanh(W ", q[0], q[1], " + U h", ["sub", "i"], ")"];
    var energies = x.energies;
    if (att === "none") {
      parts.energies = rich("p", msgParts("explain_energies_none", {head: head(2, "explain_energies")}));
    } else if (!energies) {
      parts.energies = rich("p", msgParts("explain_energies_unreported", {head: head(2, "explain_energies"), formula: seq.apply(null, formula)}));
    } else {
      var top = argmax(energies);
      parts.energies = el("div");
      parts.energies.appendChild(rich("p", msgParts("explain_energies_largest", {head: head(2, "explain_energies"), formula: seq.apply(null, formula),
        e: seq("e", ["sub", t + "," + tokens[top]]), value: num(energies[top])})));
      parts.energies.appendChild(bars(tokens, energies, "#9467bd", top));
    }

    var alpha = run.alpha[t - 1], peak = argmax(alpha), total = sum(alpha);
    var padding = d.padding_column === true;
    parts.softmax = el("div");
    if (att === "none") {
      parts.softmax.appendChild(rich("p", msgParts("explain_softmax_none", {head: head(3, "explain_softmax"), n: alpha.length})));
    } else if (energies && !padding && energies.length === alpha.length) {
      var z = sum(energies.map(Math.exp));
      parts.softmax.appendChild(rich("p", msgParts("explain_softmax_full", {head: head(3, "explain_softmax"),
        formula: seq("\u03b1", ["sub", "t,i"], " = exp(e", ["sub", "t,i"], ") / \u03a3", ["sub", "j"], " exp(e", ["sub", "t,j"], ")"),
        token: ["i", tokens[peak]], e: num(energies[peak]), z: num(z, 2), alpha: ["b", num(alpha[peak])], total: num(total, 4)})));
    } else {
      parts.softmax.appendChild(rich("p", msgParts("explain_softmax_largest", {head: head(3, "explain_softmax"), a: seq("\u03b1", ["sub", "t," + tokens[peak]]),
        alpha: ["b", num(alpha[peak])], total: num(total, 4)}).concat(padding ? [" " + msg("explain_padding", {share: num(alpha[alpha.length - 1])})] : [])));
    }
    parts.softmax.appendChild(bars(tokens, alpha, "#1f77b4", peak));

    var order = alpha.map(function (_, i) { return i; }).sort(function (a, b) { return alpha[b] - alpha[a]; });
    var terms = [];
    order.slice(0, 3).forEach(function (i, k) {
      if (k) terms.push(" + ");
      terms.push(num(alpha[i], 2) + "\u00b7h", ["sub", i + 1], "(", ["i", tokens[i]], ")");
    });
    parts.context = att === "none"
      ? rich("p", msgParts("explain_context_none", {head: head(4, "explain_context"), norm: num(x.context_norm)}))
      : rich("p", msgParts("explain_context_with", {head: head(4, "explain_context"),
          formula: seq.apply(null, ["c", ["sub", t], " = \u03a3", ["sub", "i"], " \u03b1", ["sub", t + ",i"], " h", ["sub", "i"], " = "].concat(
            terms, [order.length > 3 ? " + \u2026" : ""])), size: x.context_size, norm: num(x.context_norm)}));

    var move = {change: num(x.state_change), from: num(x.previous_state_norm), to: num(x.state_norm), cell: cell};
    parts.update = after
      ? rich("p", msgParts("explain_update_after", Object.assign({head: ["b", msg("explain_update", {n: "1"})],
          formula: seq("s", ["sub", t], " = " + cell + "(s", ["sub", t - 1], ", [emb(", ["i", prev], ")" +
            (dec.input_feeding ? msg("explain_input_feeding") : "") + "])")}, move)))
      : conditional
        ? rich("p", msgParts("explain_update_conditional", Object.assign({head: ["b", msg("explain_update", {n: "5"})],
            formula: seq("s", ["sub", t], " = " + cell + "(s'", ["sub", t], ", c", ["sub", t], ")"), previous: seq("s", ["sub", t - 1])}, move)))
        : rich("p", msgParts("explain_update_plain", Object.assign({head: ["b", msg("explain_update", {n: "5"})],
            formula: seq("s", ["sub", t], " = " + cell + "(s", ["sub", t - 1], ", [emb(", ["i", prev], "); c", ["sub", t], "])")}, move)));

    var from = dec.own_readout ? seq("[s", ["sub", t], "; c", ["sub", t], "; emb(", ["i", prev], ")]")
      : after ? seq.apply(null, msgParts("explain_from_after", {s: seq("s", ["sub", t]), c: seq("c", ["sub", t])}))
      : seq.apply(null, msgParts("explain_from_state", {s: seq("s", ["sub", t])}));
    var piece = step.piece === "start" ? " " + msg("explain_piece_start")
      : step.piece === "continue" ? " " + msg("explain_piece_continue")
      : step.piece && step.piece.indexOf("byte:") === 0 ? " " + msg("explain_piece_byte", {byte: step.piece.substr(5)}) : "";
    var verb = d.beam && d.beam.length ? "explain_output_beam" : step.forced ? "explain_output_forced" : "explain_output_chosen";
    parts.output = el("div");
    parts.output.appendChild(rich("p", msgParts(verb, {head: ["b", msg("explain_output", {n: "6"})], from: from, k: step.candidates.length,
      token: ["i", label(step.token)], p: ["b", num(step.p)]}).concat([piece])));
    parts.output.appendChild(bars(step.candidates.map(function (c) { return label(c.token); }),
      step.candidates.map(function (c) { return c.p; }), "#2ca02c", step.chosen));

    var order2 = after ? ["attribution", "update", "query", "energies", "softmax", "context", "output"]
      : ["attribution", "query", "energies", "softmax", "context", "update", "output"];
    var focus = d.lesson && d.lesson.explain;
    order2.forEach(function (name) {
      if (!parts[name]) return;
      parts[name].classList.add("as-part-" + name);
      if (focus === name) parts[name].classList.add("as-highlight");
      body.appendChild(parts[name]);
    });
  };

  Page.count = 0;
  function mountAll() {
    var roots = document.querySelectorAll(".alignscope-page");
    for (var k = 0; k < roots.length; ++k) {
      var root = roots[k];
      if (root.alignscope) continue;
      var script = root.querySelector("script.alignscope-data");
      if (!script) continue;
      Page.count += 1;
      try {
        new Page(root, JSON.parse(script.textContent));
      } catch (e) {
        root.appendChild(el("p", {"class": "as-error"}, msg("draw_error", {message: e.message})));
        throw e;
      }
    }
  }
  // msg and msgParts for the live mode (live/page-live.js): its words come from the same catalogue
  window.AlignScopePage = {mountAll: mountAll, parts: PARTS, version: 2, msg: msg, msgParts: msgParts};
  mountAll();
  // Milliseconds from the start of navigation to the first drawing done (scripts/bench_page.py).
  window.AlignScopePage.drawnAt = window.performance ? performance.now() : null;
})();
