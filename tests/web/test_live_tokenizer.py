"""The live page's tokenizer (resources/web/live/tokenizer.js; issue 57, docs/live-page.md) in
headless Chromium against the C++ tokenizer of alignscope-cli: source ids as `trace` makes them, and
target tokens as `align` makes them, for hostile text and Tatoeba test sentences of both languages.
SentencePiece models are tokenised by SentencePiece itself in the page; word models by the page's port
of Tokenizer.cpp's rules. Text the CLI refuses (a NUL, a line over 10,000 characters) and text UTF-8
cannot hold (a lone surrogate) the page refuses too, saying why.

Fast (CTest web_live): the hostile lines and 50 Tatoeba sentences, two models (SentencePiece, word).
ALIGNSCOPE_LIVE_FULL=1 (scripts/check_live_page.sh): 2,000 sentences of each language, five models
(en-fr, fr-en, en-de and de-en: English, French and German on both sides)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_live_model import CLI, FULL, REPO, needs_page, wait_ready  # noqa: E402
from browser import Browser  # noqa: E402

# The shared data beside the checkout (shared/data/README.md); the Tatoeba part skips without it.
DATA = Path(os.environ.get("ALIGNSCOPE_TATOEBA") or REPO.parent / "shared" / "data" / "fra-eng.txt")
DATA_DE = Path(os.environ.get("ALIGNSCOPE_TATOEBA_DE") or REPO.parent / "shared" / "data" / "deu-eng.txt")
COUNT = 2000 if FULL else 50
MODELS = ["en-fr-subword.pt", "en-fr-noattn.pt"] + (["fr-en-subword.pt", "en-de-subword.pt", "de-en-subword.pt"] if FULL else [])
# One line each (the CLI reads lines): every one has a visible character, or the CLI skips it
HOSTILE = [
    "Hello\u0001 wo\u0007rld\u001b[31m red\u007f and\u0085 NEL\u009b.",
    "tab\there, vertical\u000btab, form\u000cfeed and\u00a0no-break\u202fthin",
    "line\u2028separator and\u2029paragraph",
    "bidi \u202eevil\u202c \u2066isolate\u2069 \u200fRLM\u200e LRM \u061c ALM",
    "emoji 👍🏽 family 👨\u200d👩\u200d👧 flag 🇫🇷 keycap 1\ufe0f\u20e3 \U0001F600!",
    "zero\u200bwidth, soft\u00adhyphen, BOM\ufeffinside, joiner\u200dhere",
    "combining e\u0301 vs \u00e9, \u1e9b\u0323, Å vs \u212b, ﬁ ligature, Ⅻ, ①, ｆｕｌｌ",
    "İstanbul ǅ ß ẞ ΣΑΣ ﬀ ŉ Ǆ ǈ — case folding",
    "<img src=x onerror=alert(1)></script><b>bold</b> &amp; \"quotes\" 'single'",
    "Ελληνικά, русский, 中文, 日本語, 한국어, العربية, עברית, हिन्दी",
    "l’été — c’est « l’heure » ; n’est-ce pas ? (vraiment) [oui] {non} 50 % … ok",
    "x" * 5000,
    ("abcdefghij " * 455)[:4999] + "z",
    "hello " * 833 + "ok",  # 5,000 characters a SentencePiece model takes (fewer than 1,000 pieces)
]
# (text, what the page's refusal says): the CLI refuses the first two; UTF-8 cannot hold the last
REFUSED = [
    ("a\u0000b", "NUL"),
    ("y" * 10001, "at most 10000"),
    ("lone \ud800 high", "lone surrogate"),
    ("lone \udfff low", "lone surrogate"),
]


_SPLIT = {}


def tatoeba(tmp: Path, other: str = "fr"):
    """The first COUNT pairs of Tatoeba's test split of English and `other` ("fr": fra-eng.txt, "de":
    deu-eng.txt; `alignscope-cli split`, seed 1, as scripts/make_en_fr_corpus.sh and
    make_en_de_corpus.sh make them), with a source of each language."""
    data = {"fr": DATA, "de": DATA_DE}[other]
    if not data.is_file():
        pytest.skip(f"{data} is missing")
    test = _SPLIT.setdefault(other, tmp / f"tatoeba-{other}-test.tsv")  # split once a run
    if not test.is_file():
        done = subprocess.run([str(CLI), "split", "--corpus", str(data), "--valid-fraction", "0.01",
                               "--test-fraction", "0.02", "--seed", "1", "--train-out", str(tmp / f"train-{other}.tsv"),
                               "--valid-out", str(tmp / f"valid-{other}.tsv"), "--test-out", str(test)],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    pairs = [line.split("\t") for line in test.read_text(encoding="utf-8").splitlines()[:COUNT]]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def model_languages(name: str):
    """A bundled model's (source, target) language codes, from its name (en-fr-…, de-en-…)."""
    source, target = Path(name).stem.split("-")[:2]
    return source, target


def _cli(args, lines, tmp: Path, key):
    """Per line: the CLI's answer (its `key`), or {"error": what it said} for a line it refused."""
    (tmp / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([str(CLI)] + args + ["-i", str(tmp / "in.txt")], capture_output=True, text=True, timeout=1200)
    refused = {}
    for said in done.stderr.splitlines():
        number, _, why = said.partition(": ")
        if number.startswith("line ") and number[5:].isdigit():
            refused[int(number[5:]) - 1] = {"error": why}
    assert done.returncode == 0 or refused, done.stderr[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) == len(lines):  # trace writes null for a refused line
        return [refused[i] if a is None else key(a) for i, a in enumerate(answers)]
    answers = iter(answers)
    out = [refused[i] if i in refused else key(next(answers)) for i in range(len(lines))]
    assert next(answers, None) is None
    return out


def cli_source(model: Path, texts, tmp: Path):
    # teacher-forced along one token: the source's ids without decoding to max_length (a minute for
    # en-fr-noattn's greedy runs on hostile lines)
    return _cli(["trace", "--model", str(model)], [t + " ||| x" for t in texts], tmp, lambda a: a["source_ids"])


def cli_target(model: Path, texts, tmp: Path):
    # without the </s> align appends
    return _cli(["align", "--model", str(model), "-f", "json", "--no-progress"], ["x ||| " + t for t in texts], tmp,
                lambda a: a["target_tokens"][:-1])


def units(text: str):
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def tokenizer_page(model: Path, tmp: Path) -> Path:
    """A page with only the live page's tokenizer scripts (tokenizer.js, SentencePiece as live_page
    writes it) and the exporter's tokenizer descriptions: what the live page builds in load(), without
    exporting and checking the graphs (CTest's time). test_live_model checks the whole page's ids."""
    import base64
    import torch
    from alignscope import live_page, onnx_export
    from test_live_model import RUNTIME
    folder = tmp / "tokenizer-page"
    folder.mkdir()
    module = torch.jit.load(str(model))
    data = {}
    for side in ("src", "tgt"):
        d = onnx_export._tokenizer(getattr(module, side + "_tokenizer"), folder, side)
        data[side] = {"d": d, "vocab": list(getattr(module, side + "_vocab")),
                      "specials": json.loads(getattr(module, side + "_specials")),
                      "model": base64.b64encode((folder / d["model_file"]).read_bytes()).decode() if d.get("model_file") else None}
    meta = json.loads(module.metadata)
    data["meta"] = {k: meta[k] for k in ("source_eos", "max_source_length") if k in meta}
    (folder / "data.js").write_text("window.TOKENIZERS = " + json.dumps(data) + ";\n", encoding="utf-8")
    spm = (RUNTIME.parent / "sentencepiece-js" / live_page.SENTENCEPIECE).read_text(encoding="utf-8")
    (folder / "sentencepiece.js").write_text(live_page.classic_sentencepiece(spm), encoding="utf-8")
    (folder / "tokenizer.js").write_text((live_page.WEB / "tokenizer.js").read_text(encoding="utf-8"), encoding="utf-8")
    live = (live_page.WEB / "live.html").read_text(encoding="utf-8")
    csp = live[live.index('<meta http-equiv'):live.index(">", live.index('<meta http-equiv')) + 1]  # the page's own CSP
    (folder / "page.html").write_text(f"""<!DOCTYPE html><html><head><meta charset="utf-8">{csp}
<script src="sentencepiece.js"></script><script src="tokenizer.js"></script><script src="data.js"></script>
</head><body><p id="status">loading</p><script>
window.liveModel = (async function () {{
  const T = window.TOKENIZERS, m = {{tokenizers: {{}}}};
  for (const side of ["src", "tgt"]) {{
    let p = null;
    if (T[side].model) {{
      p = new AlignScopeSentencePiece.SentencePieceProcessor();
      await p._loadModel(Uint8Array.from(atob(T[side].model), (c) => c.charCodeAt(0)));
    }}
    m.tokenizers[side] = new AlignScopeTokenizer.Tokenizer(T[side].d, T[side].vocab, T[side].specials, p);
  }}
  m.sourceIds = (t) => AlignScopeTokenizer.sourceIds(m.tokenizers.src, t, T.meta.source_eos !== false, T.meta.max_source_length || 0);
  m.targetIds = (t) => AlignScopeTokenizer.targetIds(m.tokenizers.tgt, t);
  document.getElementById("status").textContent = "ready";
  return m;
}})();
window.liveModel.catch((e) => {{ document.getElementById("status").textContent = "failed: " + e.message; }});
</script></body></html>""", encoding="utf-8")
    return folder / "page.html"


PAGE = """const done = arguments[arguments.length - 1];
window.liveModel.then((m) => {
  const one = (f) => { try { return f(); } catch (e) { return {error: e.message}; } };
  const t0 = performance.now();
  const src = arguments[0].map((t) => one(() => m.sourceIds(t)));
  const ms = performance.now() - t0;
  done({src: src, ms: ms,
        tgt: arguments[1].map((t) => one(() => { m.targetIds(t); return m.tokenizers.tgt.tokens(t).map((p) => p[0]); })),
        // as UTF-16 code units: WebDriver's JSON cannot carry a lone surrogate
        refused: arguments[2].map((u) => one(() => m.sourceIds(u.map((c) => String.fromCharCode(c)).join(""))))});
}, (e) => done({error: String(e && e.stack || e)}));"""


def tokenised_as_the_cli(name: str, model: Path, sources, targets, tmp: Path) -> dict:
    """`model`'s page tokenizer on `sources` and `targets` in Chromium (no request outside its
    folder, nothing logged), each equal to the CLI's; REFUSED refused with its reason. The page's
    answer (its timing too)."""
    page = tokenizer_page(model, tmp)
    want_src, want_tgt = cli_source(model, sources, tmp), cli_target(model, targets, tmp)
    with Browser(800, 600) as b:
        b.console()
        b.requests()
        b.open(page)
        assert wait_ready(b) == "ready"
        got = b._call("POST", b._s("/execute/async"),
                      {"script": PAGE, "args": [sources, targets, [units(t) for t, _ in REFUSED]]})
        assert "error" not in got, got["error"]
        others = [u for u in b.requests() if not u.startswith(page.parent.resolve().as_uri() + "/")]
        assert not others, others
        errors = [m for m in b.console() if m.get("level") in ("SEVERE", "WARNING")]
        assert not errors, errors  # e.g. the CSP refusing an eval
    bad_src = [(t[:80], g, w) for t, g, w in zip(sources, got["src"], want_src) if g != w]
    bad_tgt = [(t[:80], g, w) for t, g, w in zip(targets, got["tgt"], want_tgt) if g != w]
    assert not bad_src, f"{name}: {len(bad_src)} of {len(sources)} sources differ, first: {bad_src[:3]}"
    assert not bad_tgt, f"{name}: {len(bad_tgt)} of {len(targets)} targets differ, first: {bad_tgt[:3]}"
    for (text, why), answer in zip(REFUSED, got["refused"]):
        assert why in answer.get("error", ""), (text[:20], answer)
    return got


@needs_page
@pytest.mark.parametrize("name", MODELS)
def test_page_tokenizer_is_the_clis(name, tmp_path):
    model = REPO / "models" / name
    source, target = model_languages(name)
    english, other = tatoeba(tmp_path, target if source == "en" else source)
    sources, targets = (english, other) if source == "en" else (other, english)
    sources, targets = HOSTILE + sources, HOSTILE + targets
    got = tokenised_as_the_cli(name, model, sources, targets, tmp_path)
    print(f"{name}: {len(sources)} sources and {len(targets)} targets as the CLI's; "
          f"the page tokenised the sources in {got['ms']:.0f} ms")


# The other tokenizer kinds and the normalisers a model file may describe (docs/model-format.md),
# none of them a bundled model's: each set on a copy of en-fr-noattn (both sides), its page
# tokens and ids against the CLI's
KINDS = {
    "whitespace": {"kind": "whitespace"},
    "whitespace-space": {"kind": "whitespace", "split": "space"},
    "char": {"kind": "char"},
    "char-spaces": {"kind": "char", "keep_spaces": True},
    "word-cased": {"kind": "word", "normalization": "none", "lowercase": False, "split_punctuation": False},
    "word-folded": {"kind": "word", "normalization": "none"},
    "word-normalisers": {"kind": "word", "split_elision": True, "normalizers": [
        {"type": "nfd"}, {"type": "strip_accents"}, {"type": "nfc"}, {"type": "lowercase"}, {"type": "strip"},
        {"type": "replace", "pattern": "\\x{2019}([a-z]+)", "content": "'$1"}, {"type": "casefold"}, {"type": "nfkd"}]},
}


@needs_page
@pytest.mark.parametrize("kind", list(KINDS))
def test_page_tokenizer_of_every_kind_is_the_clis(kind, tmp_path):
    """Whitespace, char and word tokenizers with each normaliser, source ids as `trace` makes them and
    target tokens as `align` makes them, on the hostile lines and Tatoeba sentences."""
    import torch
    module = torch.jit.load(str(REPO / "models" / "en-fr-noattn.pt"))
    module.src_tokenizer = module.tgt_tokenizer = json.dumps(KINDS[kind])
    model = tmp_path / f"{kind}.pt"
    torch.jit.save(module, str(model))
    try:  # the hostile lines always; Tatoeba's where the shared data is there
        english, french = tatoeba(tmp_path)
    except pytest.skip.Exception:
        english, french = [], []
    tokenised_as_the_cli(kind, model, HOSTILE + english, HOSTILE + french, tmp_path)


# Tokenizer::isBlank's cases: each a line the CLI skips as blank (nothing visible) or reads
BLANK_CASES = ["", " ", "\t\u000b\u000c", "\u00a0\u2002\u3000", "\u2028", "\u2029 \u2028", "\u0001\u007f\u0085\u009b",
               "\u200b\u200c\u200d\u2060\ufeff", "\u202e\u202c\u2066\u2069\u200e\u200f\u061c", "\u00ad", "\u034f\u115f\u3164",
               "\ufe0f\ufe00", "\U000e0001\U000e0041", "\u1160\u17b4\u180b", " a ", ".", "\u0301", "\u00a0x", "\u200b!", "\U0001F600",
               "\u2800", "\u3000\u3001"]


@needs_page
def test_page_blank_lines_are_the_clis(tmp_path):
    """Tokenizer::isBlank's rule in the page (tokenizer.js isBlank, the Source box's refusal): the same
    answer as the Python copy (held to `translate` by python/tests/test_campaign4.py) for every
    character Python's Unicode tables put in Zs, Zl, Zp, Cc, Cf or the ignorable ranges, each alone,
    and for mixed lines; sourceIds refuses a blank line with the CLI's words."""
    import sys as _sys
    import unicodedata
    _sys.path.insert(0, str(REPO / "python"))
    from alignscope.text import _IGNORABLE, is_blank
    lines = list(BLANK_CASES)
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        if unicodedata.category(chr(cp)) in ("Zs", "Zl", "Zp", "Cc", "Cf") or any(lo <= cp <= hi for lo, hi in _IGNORABLE):
            if unicodedata.category(chr(cp)) != "Cn":
                lines.append(chr(cp))
    page = tokenizer_page(REPO / "models" / "en-fr-noattn.pt", tmp_path)
    with Browser(800, 600) as b:
        b.open(page)
        assert wait_ready(b) == "ready"
        got = b._call("POST", b._s("/execute/async"), {"script": """const done = arguments[arguments.length - 1];
window.liveModel.then((m) => {
  const lines = arguments[0].map((cps) => String.fromCodePoint(...cps));
  let refusal = null;
  try { m.sourceIds(" \u2028\u200b"); } catch (e) { refusal = {message: e.message, key: e.key}; }
  done({blank: lines.map((l) => AlignScopeTokenizer.isBlank(l)), refusal: refusal});
});""", "args": [[[ord(c) for c in line] for line in lines]]})
    want = [is_blank(line) for line in lines]
    bad = [(ascii(line), g, w) for line, g, w in zip(lines, got["blank"], want) if g != w]
    assert not bad, f"{len(bad)} of {len(lines)} differ from text.is_blank: {bad[:10]}"
    assert got["refusal"] == {"message": "the sentence has nothing visible to translate (only spaces, line separators or invisible "
                                         "characters)", "key": "live_blank"}
    assert sum(want) > 300 and not all(want)


@needs_page
def test_export_refuses_a_pattern_javascript_runs_otherwise(tmp_path):
    """A word model whose `replace` normaliser uses '.' (RE2 matches \\r and U+2028 with it, JavaScript
    does not) is refused at export, naming the model and the pattern; one JavaScript runs alike passes."""
    import torch
    from alignscope import onnx_export
    module = torch.jit.load(str(REPO / "models" / "en-fr-noattn.pt"))
    module.src_tokenizer = json.dumps({"kind": "word", "normalizers": [{"type": "replace", "pattern": "a.b", "content": ""}]})
    odd = tmp_path / "odd-pattern.pt"
    torch.jit.save(module, str(odd))
    with pytest.raises(onnx_export.ExportError, match=r"odd-pattern\.pt.*source tokenizer.*'a\.b'.*'\.'"):
        onnx_export.export(str(odd), str(tmp_path / "out"))
    assert not (tmp_path / "out" / "model.json").exists()
    assert onnx_export.js_pattern(r"\x{2019}([a-z]+)") == r"\u{2019}([a-z]+)"


def test_the_fetched_packages_are_there_under_ctest():
    """Under CTest (ALIGNSCOPE_LIVE_REQUIRED=1) a missing runtime or SentencePiece fails here rather
    than leaving the live tests skipped: scripts/test.sh fetches both before building."""
    from test_live_model import RUNTIME
    if os.environ.get("ALIGNSCOPE_LIVE_REQUIRED") != "1":
        pytest.skip("not under CTest (ALIGNSCOPE_LIVE_REQUIRED=1)")
    for f in (RUNTIME / "ort-wasm-simd-threaded.wasm", RUNTIME.parent / "sentencepiece-js" / "index.js"):
        assert f.is_file(), f"{f} is missing: bash scripts/fetch_onnxruntime_web.sh fetches it (scripts/test.sh runs it)"
