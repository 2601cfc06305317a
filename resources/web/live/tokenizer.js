// The live page's tokenizer (issue 57; docs/live-page.md): a model file's tokenizer description
// run in the page, giving core/text/Tokenizer.cpp's tokens and Model.cpp's ids. SentencePiece
// models are tokenised by SentencePiece itself (@sctg/sentencepiece-js, its .model bytes in memory);
// word, whitespace and char models by the rules below, ported from Tokenizer.cpp (Python's copy:
// model_tokenizer.py, text.py). The exporter (onnx_export._tokenizer) refuses what JS cannot run the
// same way and hands over what it lacks (full case folding). Held equal to the CLI by
// tests/web/test_live_tokenizer.py and scripts/check_live_page.sh (2,000+ Tatoeba sentences).
(function () {
  "use strict";

  const MAX_LINE_CHARACTERS = 10000;  // Tokenizer::kMaxLineCharacters
  const MAX_SOURCE_TOKENS = 1000;     // Model::kMaxSourceTokens
  const SPACE = /^[\t\n\r\v\f\p{Zs}\p{Zl}\p{Zp}]$/u;
  const CONTROL = /^[\p{Cc}\p{Cf}]$/u;
  const PUNCTUATION = /^[\p{P}\p{S}]$/u;
  const isSpace = (c) => SPACE.test(c);
  const isControl = (c) => CONTROL.test(c);
  const isWordChar = (c) => !isSpace(c) && !PUNCTUATION.test(c) && !isControl(c);

  // A refusal of typed text: the CLI's English as the message (tests compare the two), and the page
  // catalogue's key and values (resources/web/messages/) for a page to say it in its language
  function refusal(english, key, args) { return Object.assign(new Error(english), {key: key, args: args || {}}); }

  // Tokenizer::tokenize's refusals; a JS string can hold what UTF-8 cannot (a lone surrogate)
  function check(text) {
    let characters = 0;
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length) {
        const v = text.charCodeAt(i + 1);
        if (v >= 0xdc00 && v <= 0xdfff) { i++; characters++; continue; }
      }
      if (u >= 0xd800 && u <= 0xdfff) {
        throw refusal("input is not valid Unicode (a lone surrogate at character " + characters + ")", "live_lone_surrogate",
                      {at: characters});
      }
      if (u === 0) throw refusal("input contains a NUL character", "live_nul");
      characters++;
    }
    if (characters > MAX_LINE_CHARACTERS) {
      throw refusal("the line has " + characters + " characters; at most " + MAX_LINE_CHARACTERS + " are read", "live_line_long",
                    {n: characters, max: MAX_LINE_CHARACTERS});
    }
  }

  // utf8proc's full case folding (CaseFolding.txt C+F) from the exporter's table: JS has none
  function casefold(text, table) {
    let out = "";
    for (const c of text) out += table[c] === undefined ? c : table[c];
    return out;
  }

  // The format's $1, $& / $0 and $$ (ReplacePattern.cpp; model_tokenizer._replacement)
  function replacement(content, groups) {
    const parts = content.split(/(\$\$|\$&|\$\d{1,2})/);
    return function (match) {
      const m = Array.prototype.slice.call(arguments, 0, groups + 1);
      let out = "";
      for (const part of parts) {
        if (part === "$$") out += "$";
        else if (part === "$&") out += m[0];
        else if (/^\$\d+$/.test(part)) {
          const n = Number(part.slice(1));
          if (n > groups && part.length === 3) out += (m[Number(part[1])] || "") + part[2];
          else out += m[n] || "";
        } else out += part;
      }
      return out;
    };
  }

  function normalizer(step, folds) {
    const forms = {nfkc: "NFKC", nfc: "NFC", nfd: "NFD", nfkd: "NFKD"};
    if (forms[step.type]) return (t) => t.normalize(forms[step.type]);
    if (step.type === "casefold") return (t) => casefold(t, folds).normalize("NFC");
    if (step.type === "lowercase") {  // one character's simple lower case, as utf8proc_tolower
      return (t) => Array.from(t, (c) => { const l = c.toLowerCase(); return Array.from(l).length === 1 ? l : c; }).join("");
    }
    if (step.type === "strip_accents") return (t) => t.replace(/\p{Mn}/gu, "");
    if (step.type === "strip") {
      return (t) => { const cs = Array.from(t); let a = 0, b = cs.length;
        while (a < b && isSpace(cs[a])) a++; while (b > a && isSpace(cs[b - 1])) b--; return cs.slice(a, b).join(""); };
    }
    if (step.type === "replace") {
      // js_pattern: the exporter's translation of an RE2 pattern it checked JS runs the same way
      if (typeof step.js_pattern !== "string") throw new Error("a replace normaliser without its checked pattern");
      const re = new RegExp(step.js_pattern, "gu");
      const groups = new RegExp("(?:" + step.js_pattern + ")|", "u").exec("").length - 1;
      const expand = replacement(step.content, groups);
      return (t) => t.replace(re, expand);
    }
    throw new Error("unknown normaliser '" + step.type + "'");
  }

  // Tokenizer.cpp's wordTokens
  function wordTokens(text, d, folds) {
    const lowercase = d.lowercase !== false;
    if ((d.normalization || "NFKC") === "NFKC") {
      text = text.normalize("NFKC");
      if (lowercase) text = casefold(text, folds).normalize("NFKC");
    } else if (lowercase) {
      text = casefold(text, folds).normalize("NFC");
    }
    const splitPunct = d.split_punctuation !== false, splitElision = d.split_elision === true;
    const cs = Array.from(text);
    const tokens = [];
    let current = "", word = 0, inWord = false;
    const flush = () => { if (current) tokens.push([current, word]); current = ""; };
    for (let i = 0; i < cs.length; i++) {
      let c = cs[i];
      if (c === "\u2019" || c === "\u02bc") c = "'";  // typographic apostrophes
      if (isSpace(c)) { flush(); if (inWord) word++; inWord = false; continue; }
      if (isControl(c)) continue;
      inWord = true;
      if (!splitPunct || isWordChar(c)) { current += c; continue; }
      const between = current !== "" && i + 1 < cs.length && isWordChar(cs[i + 1]);
      if (between && c === "'") { current += c; if (splitElision) flush(); continue; }
      if (between && c === "-") { current += c; continue; }
      flush();
      current = c;
      flush();
    }
    flush();
    return tokens;
  }

  function whitespaceTokens(text, spaceOnly) {
    const tokens = [];
    let current = "", word = 0;
    for (const c of text) {
      if (spaceOnly ? c === " " : isSpace(c)) {
        if (current) { tokens.push([current, word]); word++; }
        current = "";
      } else if (!isControl(c)) current += c;
    }
    if (current) tokens.push([current, word]);
    return tokens;
  }

  function charTokens(text, keepSpaces) {
    const tokens = [];
    let word = 0, inWord = false;
    for (const c of text) {
      if (isControl(c) && !isSpace(c)) continue;
      if (isSpace(c)) {
        if (inWord) word++;
        inWord = false;
        if (keepSpaces) tokens.push([c, -1]);
      } else {
        inWord = true;
        tokens.push([c, word]);
      }
    }
    return tokens;
  }

  class Tokenizer {
    // description: model.json's src_tokenizer / tgt_tokenizer; processor: a loaded
    // SentencePieceProcessor for kind "sentencepiece"
    constructor(description, vocab, specials, processor) {
      this.d = description;
      this.kind = description.kind || "word";
      if (!["word", "whitespace", "char", "sentencepiece"].includes(this.kind)) {
        throw new Error("unsupported tokenizer kind '" + this.kind + "'");
      }
      this.folds = description.casefold || {};
      this.steps = (description.normalizers || []).map((s) => normalizer(s, this.folds));
      this.processor = processor;
      this.vocab = vocab;
      this.index = new Map(vocab.map((t, i) => [t, i]));
      this.specials = specials;
    }

    // [token, word] pairs (word: the whitespace word it came from; -1 a space token)
    tokens(text) {
      check(text);
      for (const step of this.steps) text = step(text);
      if (this.kind === "word") return wordTokens(text, this.d, this.folds);
      if (this.kind === "whitespace") return whitespaceTokens(text, this.d.split === "space");
      if (this.kind === "char") return charTokens(text, this.d.keep_spaces === true);
      let word = -1;
      return this.processor.encodePieces(text).map((p) => {
        if (p.startsWith("\u2581") || word < 0) word++;
        return [p, word];
      });
    }

    // Model.cpp's tokenizeWith: unknown tokens are <unk>, refused where there is none
    ids(pairs, side) {
      const unk = this.specials.unk === undefined ? -1 : this.specials.unk;
      return pairs.map(([t]) => {
        const id = this.index.get(t);
        if (id !== undefined) return id;
        if (unk < 0) {
          throw refusal("'" + t + "' is not in the model's " + side + " vocabulary, and the model has no unknown-word token to stand for it",
                        "live_unknown_" + side, {token: t});
        }
        return unk;
      });
    }
  }

  // Tokenizer::detokenize (model_tokenizer.detokenize): the written text of target tokens
  const NO_SPACE_BEFORE = new Set([".", ",", ")", "]", "}", "%", "\u2026"]);
  // model_tokenizer._written_without_space: for each token, whether the word detokenizer glues it on
  function writtenWithoutSpace(tokens) {
    let glueNext = true;
    return tokens.map((t) => {
      const glued = glueNext || NO_SPACE_BEFORE.has(t);
      glueNext = t === "(" || t === "[" || (Array.from(t).length > 1 && t.endsWith("'"));
      return glued;
    });
  }
  function decoderOf(description) {
    const kind = description.kind || "word";
    return description.detokenizer || {word: "word", whitespace: "spaces", char: "concat", sentencepiece: "sentencepiece"}[kind];
  }

  // model_tokenizer.detokenized_words: for each written token, the word of detokenize()'s text it
  // belongs to (-1: a space); the page's Words view merges by these
  function detokenizedWords(description, tokens) {
    const decoder = decoderOf(description);
    let word = -1;
    if (decoder === "word") return writtenWithoutSpace(tokens).map((glued, i) => (word += i === 0 || !glued ? 1 : 0));
    if (decoder === "spaces") return tokens.map((t, i) => i);
    if (decoder === "concat") {
      let open = false;
      return tokens.map((t) => {
        if (Array.from(t).length === 1 && !t.trim()) { open = false; return -1; }
        word += open ? 0 : 1;
        open = true;
        return word;
      });
    }
    return tokens.map((t) => (word += t.startsWith("\u2581") || word < 0 ? 1 : 0));
  }

  function detokenize(description, tokens) {
    const decoder = decoderOf(description);
    if (decoder === "spaces") return tokens.join(" ");
    if (decoder === "concat") return tokens.join("");
    if (decoder === "word") {
      const glued = writtenWithoutSpace(tokens);
      return tokens.map((t, i) => (glued[i] ? "" : " ") + t).join("");
    }
    const bytes = [];
    const utf8 = new TextEncoder();
    for (const p of tokens) {
      const m = /^<0x([0-9A-F]{2})>$/.exec(p);
      if (m) bytes.push(parseInt(m[1], 16));
      else bytes.push(...utf8.encode(p.replace(/\u2581/g, " ")));
    }
    const text = new TextDecoder().decode(new Uint8Array(bytes));  // U+FFFD for broken bytes, as Python's "replace"
    return text.startsWith(" ") ? text.slice(1) : text;
  }

  // Tokenizer::isBlank, every command's one rule: nothing visible (spaces, line and paragraph
  // separators, controls, format and default-ignorable characters) is a blank line, never a
  // sentence. A lone surrogate is visible here, as invalid UTF-8 is there: tokens() refuses it.
  const INVISIBLE = /^[\t\n\r\v\f\p{Zs}\p{Zl}\p{Zp}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;
  function isBlank(text) { return INVISIBLE.test(text); }

  // Model::tokenizeSource: ids, then </s> where the model's sources end in it
  function sourceIds(tokenizer, text, sourceEos, maxSourceLength) {
    if (isBlank(text)) {
      throw refusal("the sentence has nothing visible to translate (only spaces, line separators or invisible characters)", "live_blank");
    }
    const pairs = tokenizer.tokens(text);
    const ids = tokenizer.ids(pairs, "source");
    const limit = maxSourceLength > 0 ? maxSourceLength : MAX_SOURCE_TOKENS;
    const eos = sourceEos ? 1 : 0;
    if (ids.length + eos > limit) {
      throw refusal("the sentence has " + ids.length + " tokens; this model takes at most " + (limit - eos)
                    + (maxSourceLength > 0 ? " (its declared max_source_length)" : ""),
                    maxSourceLength > 0 ? "live_source_long_declared" : "live_source_long", {n: ids.length, max: limit - eos});
    }
    if (eos) ids.push(tokenizer.specials.eos);
    if (!ids.length) throw refusal("the sentence has no tokens this model reads", "live_no_tokens");
    return ids;
  }

  function targetIds(tokenizer, text) {
    const ids = tokenizer.ids(tokenizer.tokens(text), "target");
    if (ids.length > MAX_SOURCE_TOKENS) {
      throw refusal("the target has " + ids.length + " tokens; at most " + MAX_SOURCE_TOKENS + " are accepted", "live_target_long",
                    {n: ids.length, max: MAX_SOURCE_TOKENS});
    }
    return ids;
  }

  window.AlignScopeTokenizer = {Tokenizer: Tokenizer, sourceIds: sourceIds, targetIds: targetIds, detokenize: detokenize,
                                detokenizedWords: detokenizedWords, isBlank: isBlank};
})();
