"""alignscope.show(): the decoding in Python through the model file's own TorchScript code gives
alignscope-cli's numbers (trace, export --format json) within 1e-5 on every bundled model, greedy,
forced and beam; the page data meets the one schema (resources/web/page.schema.json); untrusted
text stays text; the package's renderer files are resources/web/'s; errors name what is wrong."""

import base64
import filecmp
import html
import json
import math
import re
import sys
from pathlib import Path

import jsonschema
import pytest
import torch

import alignscope
from alignscope.decoding import LoadedModel, decode
from alignscope.model_tokenizer import ModelTokenizer
from alignscope.page import WEB_DIR, script_safe

TOL = 1e-5
ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted(p.name for p in (ROOT / "models").glob("*.pt")) + ["../tests/data/old-code-gru-additive.pt"]  # format 1
SENTENCE = "The cat would not sit on the old mat, said Anna."
FORCED = ("The cat sat on the mat.", "Le chat était assis sur le tapis.")
DATES = ("the 3rd of May 1999", "1999-05-03")
LONG = ("The committee said on Tuesday that the new rules would not change how the old ones were applied to the "
        "small farms of the northern region")  # 32 source tokens


def sentences(model_name):  # (greedy source, (source, target))
    return DATES if model_name.startswith("lesson-dates") else (SENTENCE, FORCED)


@pytest.fixture(scope="module")
def schema():
    with open(ROOT / "resources" / "web" / "page.schema.json", encoding="utf-8") as f:
        return json.load(f)


def validate(data, schema):
    jsonschema.Draft202012Validator(schema).validate(data)


def close(a, b, what):
    assert len(a) == len(b), f"{what}: {len(a)} values against {len(b)}"
    x, y = torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64)
    difference = torch.where(x == y, torch.zeros_like(x), (x - y).abs())  # the same -inf is no difference
    worst = difference.max().item() if len(a) else 0.0
    assert worst <= TOL, f"{what}: differs by {worst:g}"


@pytest.mark.parametrize("name", MODELS)
def test_greedy_and_forced_steps_are_trace_s(name, run_cli, tmp_path):
    """Every number of `alignscope-cli trace`: source tokens and ids, each step's token, alpha, its
    log-probability and the whole vocabulary's, for a decoded and a teacher-forced line."""
    greedy, forced = (DATES[0], DATES) if name.startswith("lesson-dates") else (SENTENCE, FORCED)
    lines = tmp_path / "lines.txt"
    lines.write_text(f"{greedy}\n{forced[0]} ||| {forced[1]}\n", encoding="utf-8")
    r = run_cli("trace", "--model", ROOT / "models" / name, "-i", lines)
    traces = [json.loads(line) for line in r.stdout.splitlines()]
    model = LoadedModel(str(ROOT / "models" / name))
    for trace, (source, target) in zip(traces, [(greedy, None), forced]):
        d = decode(model, source, target=target, keep_log_probs=True)
        S = len(trace["source_tokens"])
        assert d.source_tokens[:S] == trace["source_tokens"] and d.source_ids == trace["source_ids"]
        assert [s.token_id for s in d.steps] == trace["target_ids"], (source, d.translation, trace["translation"])
        assert d.translation == trace["translation"]
        for t, (step, expected) in enumerate(zip(d.steps, trace["steps"])):
            close(step.alpha[:S], expected["alpha"], f"{name} step {t + 1} alpha")
            close(step.log_probs, expected["log_probs"], f"{name} step {t + 1} log_probs")
            assert abs(step.log_prob - expected["log_prob"]) <= TOL
            assert step.forced == (target is not None)


@pytest.mark.parametrize("name", ["en-fr.pt", "en-fr-subword.pt", "en-fr-tatoeba-conditional.pt", "lesson-dates.pt"])
def test_beam_and_page_fields_are_export_json_s(name, run_cli, tmp_path, schema):
    """export --format json --beam 4 (the C++ page data with exact numbers): the beam's best
    hypothesis stepped through, its words and the word matrix; where the C++ writes version 2,
    every field it shares with show()'s exact data, Step explained's numbers included."""
    source = sentences(name)[0]
    (tmp_path / "in.txt").write_text(source + "\n", encoding="utf-8")
    run_cli("export", "--model", ROOT / "models" / name, "-i", tmp_path / "in.txt", "--format", "json", "--beam", "4",
            "-o", tmp_path / "out", "--no-progress")
    (exported,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "out").glob("*.json")]
    page = alignscope.show(str(ROOT / "models" / name), source, beam=4)
    data = page.exact
    validate(data, schema)
    validate(page.data, schema)
    for key in ("source_tokens", "source_words", "target_tokens", "target_words", "translation", "teacher_forced",
                "beam_hypothesis", "model"):
        assert data[key] == exported[key], key
    for t, (row, expected) in enumerate(zip(data["alpha"], exported["alpha"])):
        close(row, expected, f"alpha row {t + 1}")
    assert data["words"]["source"] == exported["words"]["source"]
    assert data["words"]["target"] == exported["words"]["target"]
    for row, expected in zip(data["words"]["alpha"], exported["words"]["alpha"]):
        close(row, expected, "word matrix")
    if exported.get("format_version") != 2:
        pytest.skip("this alignscope-cli writes the export JSON of version 1 (no steps, beam or card)")
    assert [h["tokens"] for h in data["beam"]] == [h["tokens"] for h in exported["beam"]]
    close([h["score"] for h in data["beam"]], [h["score"] for h in exported["beam"]], "beam scores")
    # Beam search chose every token (issue 58: no step is "forced"), and each hypothesis has its rows.
    assert not any(s["forced"] for s in data["steps"]) and not any(s["forced"] for s in exported["steps"])
    for k, (h, expected) in enumerate(zip(data["beam"], exported["beam"])):
        assert len(h["alpha"]) == len(expected["alpha"]) == len(h["tokens"]), f"hypothesis {k + 1} rows"
        for row, want in zip(h["alpha"], expected["alpha"]):
            close(row, want, f"hypothesis {k + 1} alpha")
    assert data["decoder"] == exported["decoder"]
    assert [c for c in data["model_card"] if c["label"] != "file"] == \
        [c for c in exported["model_card"] if c["label"] != "file"]
    for t, (step, expected) in enumerate(zip(data["steps"], exported["steps"])):
        for key in ("token", "id", "forced", "piece"):
            assert step[key] == expected[key], f"step {t + 1} {key}"
        top = len(expected["candidates"])  # --format json keeps the most probable candidate only
        assert (step["chosen"] if step["chosen"] < top else -1) == expected["chosen"], f"step {t + 1} chosen"
        assert [c["id"] for c in step["candidates"][:top]] == [c["id"] for c in expected["candidates"]]
        close([c["p"] for c in step["candidates"][:top]], [c["p"] for c in expected["candidates"]], f"step {t + 1} p")
        assert sorted(step["explain"]) == sorted(expected["explain"]), f"step {t + 1} explain's parts"
        for key, value in step["explain"].items():
            close(value if isinstance(value, list) else [value],
                  expected["explain"][key] if isinstance(value, list) else [expected["explain"][key]],
                  f"step {t + 1} explain {key}")
    # The encoder panel's states (h_i, s_0, each step's c_t and s_t), quantised alike: a byte
    # apart at most, where a value sits on a rounding edge.
    def same_bytes(a, b, what):
        x, y = base64.b64decode(a), base64.b64decode(b)
        assert len(x) == len(y) and len(x) > 0, what
        worst = max(abs((p if p < 128 else p - 256) - (q if q < 128 else q - 256)) for p, q in zip(x, y))
        assert worst <= 1, f"{what}: {worst} apart"
    assert data["encoder"]["size"] == exported["encoder"]["size"]
    for key in ("states", "initial_state"):
        same_bytes(data["encoder"][key], exported["encoder"][key], f"encoder {key}")
    for t, (step, expected) in enumerate(zip(data["steps"], exported["steps"])):
        for key in ("context", "state"):
            same_bytes(step[key], expected[key], f"step {t + 1} {key}")
    # The page export's own data (numbers rounded to 4 decimals, the app's ten candidates a step)
    run_cli("export", "--model", ROOT / "models" / name, "-i", tmp_path / "in.txt", "--format", "html", "--beam", "4",
            "-o", tmp_path / "html", "--no-progress")
    (written,) = [p.read_text(encoding="utf-8") for p in (tmp_path / "html").glob("*.html")]
    embedded = json.loads(re.search(r'class="alignscope-data">(.*?)</script>', written, re.S).group(1))
    assert embedded["rounded"] == page.data["rounded"] == 4
    # every field but the two the page does not read (each token's characters, Pharaoh links)
    assert set(embedded) - set(page.data) == {"source_offsets", "links"} and set(page.data) <= set(embedded)
    assert embedded["options"] == page.data["options"]
    assert re.search("<title>(.*)</title>", written).group(1) == re.search("<title>(.*)</title>", page.html()).group(1)
    for step, expected in zip(page.data["steps"], embedded["steps"]):
        assert step["chosen"] == expected["chosen"]
        assert [c["id"] for c in step["candidates"]] == [c["id"] for c in expected["candidates"]]
        assert max(abs(a["p"] - b["p"]) for a, b in zip(step["candidates"], expected["candidates"])) <= 1.5e-4


def test_step_explained_numbers_are_the_model_s():
    """The energies are the ones alpha is the softmax of, the query is the state attention read
    (s_{t-1} in Bahdanau's order), the update's change is ||s_t - s_{t-1}||, and the page's numbers
    are the exact ones rounded to 4 decimals."""
    for name in ("en-fr.pt", "en-fr-tatoeba-conditional.pt"):
        model = LoadedModel(str(ROOT / "models" / name))
        page = alignscope.show(model, FORCED[0], target=FORCED[1])
        steps = decode(model, FORCED[0], target=FORCED[1]).steps
        d = page.exact
        assert d["teacher_forced"] and all(s["forced"] for s in d["steps"])
        assert d["decoder"]["conditional_decoder"] == (name == "en-fr-tatoeba-conditional.pt")
        for step, row, r in zip(d["steps"], d["alpha"], steps):
            e = step["explain"]["energies"]
            z = sum(math.exp(v) for v in e)
            close([math.exp(v) / z for v in e], row, f"{name}: softmax of the energies")
            assert step["explain"]["query_norm"] == step["explain"]["previous_state_norm"]
            change = math.sqrt(sum((a - b) ** 2 for a, b in zip(r.state, r.previous_state)))
            assert abs(step["explain"]["state_change"] - change) < 1e-9
        assert page.data["rounded"] == 4 and d["rounded"] is None
        for rounded, exact in zip(page.data["alpha"], d["alpha"]):
            assert all(abs(a - b) <= 0.5e-4 + 1e-12 for a, b in zip(rounded, exact))
        assert page.data["steps"][0]["explain"]["state_norm"] == round(d["steps"][0]["explain"]["state_norm"], 4)


def test_words_view_and_sizes(schema):
    page = alignscope.show(str(ROOT / "models" / "en-fr-subword.pt"), SENTENCE, words=True)
    validate(page.data, schema)
    assert page.data["options"]["words"] is True
    # </s> is a column of its own after the words (as the app's Words view): every row sums to 1.
    assert page.data["words"]["source"] == SENTENCE.split() + ["</s>"]
    for row in page.exact["words"]["alpha"]:
        assert abs(sum(row) - 1) < 1e-4
    long = alignscope.show(str(ROOT / "models" / "en-fr-subword.pt"), LONG)
    assert len(long.data["source_tokens"]) >= 30 and len(long.html().encode("utf-8")) <= 300_000


def test_the_page_is_the_one_renderer_s(tmp_path):
    """The renderer the package ships is resources/web/, file for file; the page is self-contained."""
    def files(root):  # every file below it (the live page's are in live/), by its path there
        return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if p.is_file())
    shipped = files(WEB_DIR)
    source = files(ROOT / "resources" / "web")
    assert shipped == source
    for name in source:
        assert filecmp.cmp(Path(WEB_DIR) / name, ROOT / "resources" / "web" / name, shallow=False), name
    page = alignscope.show(str(ROOT / "models" / "en-fr.pt"), FORCED[0])
    path = page.save(str(tmp_path / "page.html"))
    text = Path(path).read_text(encoding="utf-8")
    assert text == page.html()
    css, js = ((ROOT / "resources" / "web" / n).read_text(encoding="utf-8") for n in ("page.css", "page.js"))
    assert css in text and js in text and "{{" + "DATA}}" not in text
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", text.replace(js, "").replace(css, ""))
    inline = page._repr_html_()
    assert inline.startswith("<iframe") and html.unescape(re.search(r'srcdoc="([^"]*)"', inline).group(1)) == text


def hostile_model(path):
    """A tiny model whose vocabularies hold markup (a model file is untrusted input)."""
    arch = alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=12, attention_size=8,
                                   readout_size=8)
    words = ["<img/src=x/onerror=alert(1)>", "</script>", "&amp;", "ok"]  # whitespace-free: one token each
    vocab = alignscope.SPECIALS + words
    model = alignscope.Seq2SeqAttention(len(vocab), len(vocab), arch, seed=3).eval()
    tokenizer = {"kind": "whitespace", "normalizers": [], "detokenizer": "spaces"}
    alignscope.export(model, vocab, vocab, str(path), name="<b>bold</b> </script>", src_tokenizer=tokenizer,
                      tgt_tokenizer=tokenizer)
    return words


def test_untrusted_text_stays_text(tmp_path):
    words = hostile_model(tmp_path / "hostile.pt")
    page = alignscope.show(str(tmp_path / "hostile.pt"), " ".join(words[:3]) + " ok", target="</script> ok")
    text = page.html()
    template = (ROOT / "resources" / "web" / "page.html").read_text(encoding="utf-8")
    js = (ROOT / "resources" / "web" / "page.js").read_text(encoding="utf-8")
    assert text.count("</script>") == template.count("</script>") + js.count("</script>")
    assert "<img" not in text.replace(js, "") and "<b>bold" not in text
    data = re.search(r'<script type="application/json" class="alignscope-data">(.*?)</script>', text, re.S).group(1)
    assert json.loads(data) == json.loads(json.dumps(page.data))
    assert page.data["source_tokens"][:3] == words[:3] and page.data["model"] == "<b>bold</b> </script>"
    assert script_safe({"t": "</script><!--\u2028"}) == '{"t":"\\u003c/script\\u003e\\u003c!--\\u2028"}'


def test_untrusted_text_runs_nothing_in_chromium(tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    import browser  # the WebDriver client of the C++ page's browser tests
    why = browser.available()
    if why:
        pytest.skip(why)
    words = hostile_model(tmp_path / "hostile.pt")
    path = Path(alignscope.show(str(tmp_path / "hostile.pt"), " ".join(words[:3])).save(str(tmp_path / "h.html")))
    with browser.Browser() as b:
        b.open(path)
        b.keys("End")
        assert b.alert_text() is None
        shown = b.run("return document.querySelector('.alignscope-page').textContent")
        assert words[0] in shown and "</script>" in shown
        assert not b.run("return document.querySelectorAll('img, [onerror]').length")
        assert [m for m in b.console() if m.get("level") == "SEVERE"] == []
        assert b.requests() == [path.as_uri()]


def test_mistakes_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read the model file '.*missing.pt': no such file"):
        alignscope.show(str(tmp_path / "missing.pt"), "hello")
    (tmp_path / "not-a-model.pt").write_text("hello", encoding="utf-8")
    with pytest.raises(ValueError, match="the model file '.*not-a-model.pt' is not a TorchScript model"):
        alignscope.show(str(tmp_path / "not-a-model.pt"), "hello")
    model = str(ROOT / "models" / "en-fr.pt")
    with pytest.raises(NotImplementedError, match="--heatmap occlusion"):
        alignscope.show(model, "hello", method="occlusion")
    with pytest.raises(ValueError, match="unknown method 'gradients'"):
        alignscope.show(model, "hello", method="gradients")
    with pytest.raises(ValueError, match="beam must be 1 to 64"):
        alignscope.show(model, "hello", beam=0)
    with pytest.raises(TypeError, match="a model file's path or what an adapter returns"):
        alignscope.show(42, "hello")
    with pytest.raises(OSError, match="cannot write the page '.*nowhere/page.html'"):
        alignscope.show(model, "hello").save(str(tmp_path / "nowhere" / "page.html"))
    with pytest.raises(ValueError, match="this model takes at most"):
        alignscope.show(str(ROOT / "models" / "lesson-dates.pt"), " ".join(["1"] * 1000))


@pytest.mark.parametrize("kind", ["d2l", "tutorial", "keras-chars", "word-elision"])
def test_tokenizers_are_the_cores(kind, run_cli, tmp_path):
    """The tokenizer kinds and normalisers the adapters write, run in Python (model_tokenizer.py)
    and by the C++ core (`trace`): the same tokens, and the same text from the decoded ids."""
    from alignscope.adapters.d2l import D2L_TOKENIZER
    from alignscope.adapters.keras import COURSE_SOURCE_CHARS, COURSE_TARGET_CHARS
    from alignscope.adapters.pytorch_tutorial import TOKENIZER as TUTORIAL
    word = dict(alignscope.DEFAULT_TOKENIZER, split_elision=True)
    src, tgt = {"d2l": (D2L_TOKENIZER, D2L_TOKENIZER), "tutorial": (TUTORIAL, TUTORIAL),
                "keras-chars": (COURSE_SOURCE_CHARS, COURSE_TARGET_CHARS), "word-elision": (word, word)}[kind]
    lines = ["Va-t'en\u202f! Élan, café.", "L'homme  (dit-il) : « Non… » 3,5 %", "Ça va ? Oui. Ｆｕｌｌ ｗｉｄｔｈ"]
    tokens = {t for line in lines for t, _ in ModelTokenizer(src).tokenize(line)}
    vocab = alignscope.SPECIALS + sorted((tokens | {"x", "é", " ", ".", "'", "l'"}) - set(alignscope.SPECIALS))
    arch = alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=12, attention_size=8,
                                   readout_size=8)
    model = tmp_path / "m.pt"
    alignscope.export(alignscope.Seq2SeqAttention(len(vocab), len(vocab), arch, seed=5).eval(), vocab, vocab,
                      str(model), src_tokenizer=src, tgt_tokenizer=tgt)
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    traces = [json.loads(t) for t in run_cli("trace", "--model", model, "--max-len", 8, "-i",
                                              tmp_path / "in.txt").stdout.splitlines()]
    loaded = LoadedModel(str(model))
    for line, trace in zip(lines, traces):
        d = decode(loaded, line, max_length=8)
        assert d.source_tokens == trace["source_tokens"], line
        assert [s.token_id for s in d.steps] == trace["target_ids"] and d.translation == trace["translation"]


def test_the_notebook_frame_is_as_tall_as_its_page_and_follows_it(tmp_path):
    """Issue 58: a notebook's output frame is its page's height (±10 px, no inner scrollbar), and
    follows the page when it grows or shrinks (a hypothesis chosen, the model card opened, step 0)."""
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    import browser
    why = browser.available()
    if why:
        pytest.skip(why)
    page = alignscope.show(str(ROOT / "models" / "en-fr.pt"), SENTENCE, beam=3)
    notebook = tmp_path / "notebook.html"
    notebook.write_text(f"<!DOCTYPE html><html><body><p>In [1]:</p>{page._repr_html_()}<p>In [2]:</p></body></html>", encoding="utf-8")
    heights = ("const f = document.querySelector('iframe'); return [f.clientHeight, "
               "Math.ceil(f.contentDocument.documentElement.getBoundingClientRect().height), f.contentWindow.innerHeight]")
    for width in (1024, 600):
        with browser.Browser(width, 768) as b:
            b.open(notebook)
            seen = []
            for change in ("", "d.querySelector('.as-card-panel details').open = true",
                           "d.querySelectorAll('.as-beam button')[1].click()", "d.querySelector('.alignscope-page').alignscope.go(0)"):
                b.run("const d = document.querySelector('iframe').contentDocument; " + change)
                for _ in range(20):  # the observer answers after the next layout
                    frame, content, inner = b.run(heights)
                    if abs(frame - content) <= 10:
                        break
                    b.run("return new Promise(r => setTimeout(r, 50))")
                assert abs(frame - content) <= 10 and inner == frame, f"{width} px, after {change!r}: frame {frame}, page {content}"
                seen.append(content)
            assert len(set(seen)) > 1, seen  # the page did change size, and the frame followed
            assert [m for m in b.console() if m.get("level") == "SEVERE"] == []


def test_piece_labels_are_the_cores_rule():
    """page_data.piece_labels is PieceText::labels' Python copy: the cases of tests/TokenizerTest.cpp
    (PieceLabels) give the same labels; the German model's weiß is checked against the CLI below."""
    from alignscope.page_data import JOIN_MARK, piece_labels
    assert piece_labels(["\u2581wei", "<0xC3>", "<0x9F>", ","]) == ["\u2581wei", "ß", JOIN_MARK, ","]
    assert piece_labels(["<0xEC>", "<0xA3>", "<0xBC>", "<0xEC>", "<0x9D>", "<0x98>"]) == \
        ["주", JOIN_MARK, JOIN_MARK, "의", JOIN_MARK, JOIN_MARK]
    for kept in (["<0xC3>", "a"], ["x", "<0xE2>", "<0x82>"], ["<0x9F>", "<0xC3>"], ["<0xC0>", "<0x80>"],
                 ["<0xED>", "<0xA0>", "<0x80>"], ["<0x0A>"], ["<0x20>"], ["<0xZZ>"]):
        assert piece_labels(kept) == kept
    assert piece_labels(["<0x41>", "<0xC3>", "<0xC3>", "<0xA4>"]) == ["A", "<0xC3>", "ä", JOIN_MARK]


def test_byte_pieces_are_labelled_as_the_cli_labels_them(run_cli, tmp_path, schema):
    """Lesson 3's weiß (en-de-subword has no piece for ß): the target tokens stay <0xC3> <0x9F>, the
    labels read ß and the join mark, the same in show()'s data and export --format json's (C++)."""
    source, target = "I know that he has read the book.", "Ich weiß, dass er das Buch gelesen hat."
    (tmp_path / "in.txt").write_text(f"{source} ||| {target}\n", encoding="utf-8")
    run_cli("export", "--model", ROOT / "models" / "en-de-subword.pt", "-i", tmp_path / "in.txt", "--format", "json",
            "-o", tmp_path / "out", "--no-progress")
    (exported,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "out").glob("*.json")]
    data = alignscope.show(str(ROOT / "models" / "en-de-subword.pt"), source, target=target).data
    validate(data, schema)
    assert "<0xC3>" in exported["target_tokens"] and data["target_tokens"] == exported["target_tokens"]
    at = exported["target_tokens"].index("<0xC3>")
    assert exported["target_labels"][at:at + 2] == ["ß", "\u2040"]
    for key in ("source_labels", "target_labels"):
        assert data[key] == exported[key], key
    assert [h["labels"] for h in data["beam"]] == [h["labels"] for h in exported["beam"]]


def test_show_speaks_the_language_asked_for():
    """show(..., language="ko"): the page's lang, its Korean catalogue (the one file the C++ page
    embeds too: resources/web/messages/ko.json) and no English control; an unknown language is
    refused before any decoding, naming the languages there are."""
    from alignscope.page import languages, messages
    assert languages() == ["de", "en", "fr", "ko"]
    page = alignscope.show(str(ROOT / "models" / "en-fr-subword.pt"), "The red car.", language="ko")
    text = page.html()
    assert '<html lang="ko">' in text
    catalogue = json.loads((ROOT / "resources" / "web" / "messages" / "ko.json").read_text(encoding="utf-8"))
    assert messages("ko") == catalogue
    assert script_safe(catalogue) in text and html.escape(catalogue["noscript"]) in text
    assert "This AlignScope page draws with JavaScript" not in text
    with pytest.raises(ValueError, match=r"'xx'.*de, en, fr, ko"):
        alignscope.show(str(ROOT / "models" / "en-fr-subword.pt"), "The red car.", language="xx")


def test_show_live_refuses_what_it_cannot_make(tmp_path, monkeypatch):
    """show(live=True) needs a model file (its own code is what the page runs) and the live page's
    tools; each refusal names what is missing, and no page is written (issue 57)."""
    import alignscope
    from alignscope import onnx_export
    model = Path(__file__).resolve().parents[2] / "models" / "en-fr-subword.pt"
    loaded = LoadedModel(str(model))
    with pytest.raises(ValueError, match="live=True.*file's path"):
        alignscope.show(loaded, "The red car.", live=True)
    page = alignscope.show(str(model), "The red car.", live=True)
    monkeypatch.setenv("ALIGNSCOPE_ORT_WEB", str(tmp_path / "no-runtime"))
    with pytest.raises(onnx_export.ExportError, match=r"ONNX Runtime Web.*no-runtime.*fetch_onnxruntime_web\.sh"):
        page.save(tmp_path / "page.html")
    assert not (tmp_path / "page.html").exists()
    assert "script-src 'unsafe-inline'" in page.html()  # the page itself: the static one; save() makes it live
