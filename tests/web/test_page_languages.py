"""The page in the learners' language (issue 60): one message catalogue a language
(resources/web/messages/*.json) with the same keys and placeholders, the languages the C++ and
Python producers offer are those files, and a page written with `export --format html --language`
has no English control string left (its DOM walked in headless Chromium at step 0, step 1 and the
end), numbers in its prose with the language's decimal sign and a dot in its matrix."""

import json
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Browser, available  # noqa: E402
from test_live_model import _missing as missing_live  # noqa: E402
from test_page import CLI, REPO, WEB, export  # noqa: E402

MESSAGES = WEB / "messages"
LANGUAGES = ("en", "ko", "de", "fr")
PLACEHOLDER = re.compile(r"\{\w+\}")


def catalogue(language):
    return json.loads((MESSAGES / f"{language}.json").read_text(encoding="utf-8"))


def test_the_catalogues_have_the_same_keys_and_placeholders():
    assert sorted(p.stem for p in MESSAGES.glob("*.json")) == sorted(LANGUAGES)
    english = catalogue("en")
    for language in LANGUAGES:
        messages = catalogue(language)
        assert list(messages) == list(english), f"{language}.json: keys differ from en.json's"
        for key, text in messages.items():
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), f"{language}.json: {key}"
    # Nothing left in English: a Korean text has Hangul; a German or French one equal to the English
    # is a word the language shares (Heatmap, Softmax, Attribution, source).
    same = {"de": {"page_title", "heatmap", "explain_attribution", "explain_softmax", "live_ready_head"},
            "fr": {"source", "heatmap_attention", "axis_source", "explain_attribution", "explain_softmax", "live_occlusion",
                   "method_occlusion"}}
    for key, text in catalogue("ko").items():
        assert re.search("[\uac00-\ud7a3]", text) or not re.search("[A-Za-z]{2}", PLACEHOLDER.sub("", text)) \
            or key == "page_title", f"ko.json: {key} has no Korean"
    for language in ("de", "fr"):
        assert {k for k, v in catalogue(language).items() if v == english[k] and re.search("[A-Za-z]", v)} <= same[language] | {
            "page_title", "decimal_sign"}, f"{language}.json: English left"
    # The C++ producer's list (HtmlPage::languages) is these files.
    code = (REPO / "ui" / "HtmlPage.cpp").read_text(encoding="utf-8")
    listed = re.search(r"static const std::vector<std::string> all = \{([^}]*)\}", code).group(1)
    assert sorted(re.findall(r'"(\w+)"', listed)) == sorted(LANGUAGES)


# What the page shows as its own words: text and labels, less the data (sentences, tokens, the
# model's card, hypotheses; the live panel's model file, name and licence), which stay the model's.
VISIBLE_TEXT = """
const skip = '.as-card, .as-source, .as-translation, .as-hyp, .as-cand-token, .as-col-label, .as-row-label, .as-live-value, script, style';
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode())
  if (!n.parentElement.closest(skip) && n.textContent.trim()) out.push(n.textContent.trim());
for (const e of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]'))
  for (const a of ['aria-label', 'title', 'alt', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
return out.join('\\n');
"""


def english_fragments(language):
    """Each English template's literal parts of a word or more that the language's catalogue does
    not itself contain (German keeps "Heatmap" and "Softmax", French "Attribution")."""
    own = "\n".join(catalogue(language).values())
    fragments = set()
    for text in catalogue("en").values():
        for part in PLACEHOLDER.split(text):
            part = part.strip(" ,.:;()")
            if re.search(r"[A-Za-z]{3}", part) and part not in own:
                fragments.add(part)
    return fragments


@pytest.fixture(scope="module")
def language_pages(tmp_path_factory):
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    tmp = tmp_path_factory.mktemp("languages")
    model = REPO / "models" / "en-de-subword.pt"
    line = "I know that he has read the book. ||| Ich weiß, dass er das Buch gelesen hat."
    out = {}
    for language in LANGUAGES:
        (forced,) = export(tmp / language / "forced", [line], "--model", model, "--language", language)
        (beam,) = export(tmp / language / "beam", ["I know that he has read the book."], "--model", model, "--beam", "3",
                         "--language", language)
        out[language] = (forced, beam)
    return out


pytestmark_browser = pytest.mark.skipif(available() is not None, reason=available() or "")


@pytestmark_browser
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_in_each_language_has_no_english_control_string_left(language, language_pages):
    fragments = english_fragments(language)
    with Browser(1024, 768) as b:
        for path in language_pages[language]:
            b.open(path)
            assert b.run("return document.documentElement.lang") == language
            seen = []
            for keys in (("Home",), ("ArrowRight",), ("End",)):
                b.keys(*keys)
                seen.append(b.run(VISIBLE_TEXT))
            text = "\n".join(seen)
            left = sorted(f for f in fragments if f in text)
            assert not left, f"{path.name} ({language}): English left: {left}"
            if language == "en":  # the walk sees the controls: the English page has them
                assert "Step explained" in text and "Candidates at step 1" in text
            if language == "ko":
                assert re.search("[\uac00-\ud7a3]", text) and "단계 설명" in text


@pytestmark_browser
def test_numbers_in_prose_take_the_languages_decimal_sign_and_the_matrix_a_dot(language_pages):
    with Browser(1024, 768) as b:
        for language, sign in (("de", ","), ("fr", ","), ("en", "."), ("ko", ".")):
            b.open(language_pages[language][0])
            b.keys("Home", "ArrowRight")
            explained = b.run("return document.querySelector('.as-explain').textContent")
            assert re.search(r"\d" + re.escape(sign) + r"\d{3}\b", explained), f"{language}: {explained[:300]}"
            if sign == ",":
                assert not re.search(r"\d\.\d{3}\b", explained), f"{language}: a dot in prose: {explained[:300]}"
            sums = b.run("return [...document.querySelectorAll('.as-heatmap-panel .as-row-sum')].map(t => t.textContent)")
            assert sums and all(re.fullmatch(r"\d\.\d{3}", s) for s in sums), f"{language}: {sums}"


def test_an_unknown_language_is_refused_naming_the_ones_there_are(tmp_path):
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    (tmp_path / "in.txt").write_text("The red car.\n", encoding="utf-8")
    import subprocess
    r = subprocess.run([str(CLI), "export", "--model", str(REPO / "models" / "en-fr-subword.pt"), "--format", "html", "-i",
                        str(tmp_path / "in.txt"), "-o", str(tmp_path / "out"), "--language", "xx", "--no-progress"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "'xx'" in r.stderr and "en, ko, de, fr" in r.stderr, r.stderr


@pytestmark_browser
def test_byte_pieces_read_as_their_letter_on_the_page(language_pages):
    """en-de's weiß: its rows are labelled ß and the join mark (PieceText::labels, from the data),
    and the readout names the byte pieces behind them; Step explained keeps the model's token."""
    with Browser(1024, 768) as b:
        b.open(language_pages["en"][0])
        labels = b.run("return [...document.querySelectorAll('.as-heatmap-panel .as-row-label')].map(t => t.textContent)")
        at = labels.index("ß")
        assert labels[at + 1] == "\u2040"
        readouts = []
        for row in (at, at + 1):
            b.run(f"document.querySelector('.as-heatmap-panel .as-cell[data-row=\"{row}\"][data-col=\"1\"]')"
                  ".dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))")
            readouts.append(b.run("return document.querySelector('.as-readout').textContent"))
        assert readouts[0].startswith("ß (<0xC3>) \u2192") and readouts[1].startswith("\u2040 (<0x9F>) \u2192"), readouts
        b.keys("Home", *["ArrowRight"] * (at + 1))
        assert "<0xC3>" in b.run("return document.querySelector('.as-explain').textContent")


def fill(template, args):
    return PLACEHOLDER.sub(lambda m: str(args[m.group(0)[1:-1]]) if m.group(0)[1:-1] in args else m.group(0), template)


# Typed text the live page refuses (tokenizer.js), each refusal's English the CLI's
# (test_live_tokenizer holds the two equal): NUL, a line over 10,000 characters, a lone surrogate
# (as UTF-16 code units: WebDriver's JSON cannot carry one), a target over 1,000 tokens.
REFUSALS = """const done = arguments[arguments.length - 1];
const live = document.querySelector('.alignscope-page').alignscopeLive;
live.model.then((m) => {
  const one = (f) => { try { f(); return null; } catch (e) { return {message: e.message, key: e.key, args: e.args}; } };
  done([one(() => m.sourceIds("a\\u0000b")), one(() => m.sourceIds("y".repeat(10001))),
        one(() => m.sourceIds("lone " + String.fromCharCode(0xd800) + " high")),
        one(() => m.targetIds("x ".repeat(1001))), one(() => m.sourceIds(" \\u2028\\u200b"))]);
});"""


@pytest.mark.skipif(missing_live() is not None, reason=missing_live() or "")
def test_a_live_page_in_korean_has_no_english_control_string_left(tmp_path):
    """export --live --language ko: once its model is ready, the live panel (progress line, boxes,
    beam, occlusion, the model's licence line, the candidates' what-if tips) and a refusal of typed
    text speak Korean; each refusal's English in en.json is the text tokenizer.js (the CLI's) says."""
    (page,) = export(tmp_path, ["The red car is very fast."], "--model", REPO / "models" / "en-fr-subword.pt", "--live",
                     "--language", "ko")
    fragments = english_fragments("ko")
    english, korean = catalogue("en"), catalogue("ko")
    with Browser(1024, 768) as b:
        b.console()
        b.open(page)
        loading = b.run("return document.querySelector('.as-live-status').textContent")
        assert re.search("[\uac00-\ud7a3]", loading), loading  # the progress line, while the model loads
        deadline = time.time() + 120
        while time.time() < deadline and not b.run("return !!document.querySelector('.as-live-about p')"):
            assert "불러오지 못했습니다" not in b.run("return document.querySelector('.as-live-status').textContent")
            time.sleep(0.1)
        status = b.run("return document.querySelector('.as-live-status').textContent")
        assert status.startswith(korean["live_ready_head"]) and "en-fr-subword" in status, status
        b.run("document.querySelector('.as-live-about').open = true")
        seen = []
        for keys in (("Home",), ("ArrowRight",), ("End",)):
            b.keys(*keys)
            seen.append(b.run(VISIBLE_TEXT))
        # a refusal of typed text, in the panel's alert line
        b.run("const box = document.querySelectorAll('.as-live input')[0]; box.value = 'y'.repeat(10001);"
              "document.querySelector('.alignscope-page').alignscopeLive.decodeTyped();")
        b._call("POST", b._s("/execute/async"), {"script": "const done = arguments[0];"
                "document.querySelector('.alignscope-page').alignscopeLive.busy.then(() => done(1));", "args": []})
        error = b.run("return document.querySelector('.as-live-error').textContent")
        assert error == fill(korean["live_line_long"], {"n": 10001, "max": 10000}), error
        seen.append(b.run(VISIBLE_TEXT))
        # a sentence decoded live: the page redrawn from the live numbers (its footer names the live run)
        b.run("const box = document.querySelectorAll('.as-live input')[0]; box.value = 'The red car.';"
              "document.querySelector('.alignscope-page').alignscopeLive.decodeTyped();")
        b._call("POST", b._s("/execute/async"), {"script": "const done = arguments[0];"
                "document.querySelector('.alignscope-page').alignscopeLive.busy.then(() => done(1));", "args": []})
        assert b.run("return document.querySelector('.as-translation').textContent") != "", "no live decoding"
        for keys in (("Home",), ("ArrowRight",), ("End",)):
            b.keys(*keys)
            seen.append(b.run(VISIBLE_TEXT))
        refusals = b._call("POST", b._s("/execute/async"), {"script": REFUSALS, "args": []})
    text = "\n".join(seen)
    left = sorted(f for f in fragments if f in text)
    assert not left, f"{page.name} (ko, live): English left: {left}"
    for key in ("live_panel", "live_source_hint", "live_target", "live_beam", "live_occlusion", "live_occlusion_tip", "live_about",
                "cand_what_if", "live_generator"):
        assert max(PLACEHOLDER.split(korean[key]), key=len).strip(" ,.:;()") in text, key
    for refusal, why in zip(refusals, ("NUL", "at most 10000", "lone surrogate", "at most 1000 are accepted", "nothing visible")):
        assert refusal and why in refusal["message"], refusal
        assert fill(english[refusal["key"]], refusal["args"]) == refusal["message"], refusal


# The page's pseudo-locale (issue 60's layout test): every catalogue entry wrapped and made 40 %
# longer, its letters accented ("[!!! Śţéƥ ······ !!!]"), placeholders kept. A page drawn with it
# shows any word that is not from the catalogue as plain English, and any control too narrow for
# a longer language as cut.
ACCENTED = dict(zip("aceinorsuyACEINORSUY", "áçéîñöŕšüýÁÇÉÎÑÖŔŠÜÝ"))


def pseudo(text):
    parts = PLACEHOLDER.split(text)
    holes = PLACEHOLDER.findall(text)
    body = "".join("".join(ACCENTED.get(c, c) for c in p) + (holes[k] if k < len(holes) else "") for k, p in enumerate(parts))
    return "[!!! " + body + " " + "·" * max(1, (4 * len(text) + 9) // 10) + " !!!]"


def pseudo_page(page, out):
    """The English page with the pseudo catalogue in place of en.json (the one script it reads them from)."""
    messages = {k: v if k == "decimal_sign" or not re.search("[A-Za-z]", v) else pseudo(v) for k, v in catalogue("en").items()}
    html = page.read_text(encoding="utf-8")
    start = html.index('<script type="application/json" class="alignscope-messages">')
    end = html.index("</script>", start)
    text = json.dumps(messages, ensure_ascii=False).replace("<", "\\u003c")
    out.write_text(html[:start] + '<script type="application/json" class="alignscope-messages">' + text + html[end:],
                   encoding="utf-8")
    return out


# Controls whose text is cut: wider than their box, where the box does not wrap it.
CUT = """
const out = [];
for (const e of document.querySelectorAll('button, label, select, summary, h1, h2, h3, th, .as-panel h2, .as-toolbar *'))
  if (e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
    out.push(e.tagName + ': ' + e.textContent.trim().slice(0, 60));
return out;
"""


@pytestmark_browser
@pytest.mark.parametrize("width,height", [(1024, 768), (375, 812)])
def test_the_pseudo_locale_leaves_no_english_and_cuts_no_control(width, height, language_pages, tmp_path):
    # Every English literal of a word or more that the pseudo catalogue spells otherwise.
    fragments = {part.strip(" ,.:;()") for text in catalogue("en").values() for part in PLACEHOLDER.split(text)}
    # (Less the name and the mathematics: AlignScope, exp.)
    fragments = {f for f in fragments if re.search(r"[A-Za-z]{3}", f) and pseudo(f)[5:5 + len(f)] != f} - {"AlignScope", "exp"}
    for k, path in enumerate(language_pages["en"]):
        page = pseudo_page(path, tmp_path / f"pseudo-{k}.html")
        with Browser(width, height) as b:
            b.open(page)
            seen, cut = [], set()
            for keys in (("Home",), ("ArrowRight",), ("End",)):
                b.keys(*keys)
                seen.append(b.run(VISIBLE_TEXT.replace("script, style", "script, style, noscript")))
                cut.update(b.run(CUT))
            text = "\n".join(seen)
            assert "[!!!" in text, "the pseudo catalogue was not read"
            left = sorted(f for f in fragments if f in text)
            assert not left, f"{path.name} at {width}x{height}: English outside the catalogue: {left}"
            assert not cut, f"{path.name} at {width}x{height}: cut in the pseudo-locale: {sorted(cut)}"
            if k == 0:  # for a look: tests/web/pseudo-*.png under PSEUDO_SHOTS
                import os
                if os.environ.get("PSEUDO_SHOTS"):
                    Path(os.environ["PSEUDO_SHOTS"], f"pseudo-{width}x{height}.png").write_bytes(b.screenshot())


def test_an_attribution_methods_name_and_description_in_en_json_are_the_engines(tmp_path):
    """page.js names an attribution method and describes it from the catalogue (method_<id>,
    method_<id>_description) in the page's language: en.json's are the engine's own words, as
    export writes them into the data (an Attributor's name() and description())."""
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    import subprocess
    english = catalogue("en")
    (tmp_path / "in.txt").write_text("The red car.\n", encoding="utf-8")
    for method in ("grad-x-input", "integrated-gradients", "occlusion", "attention-x-occlusion"):
        out = tmp_path / method
        r = subprocess.run([str(CLI), "export", "--model", str(REPO / "models" / "en-fr-subword.pt"), "--format", "json", "-i",
                            str(tmp_path / "in.txt"), "-o", str(out), "--heatmap", method, "--no-progress"],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        (written,) = [json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")]
        key = "method_" + method.replace("-", "_")
        assert written["attribution"]["method"] == english[key] == method
        assert written["attribution"]["description"] == english[key + "_description"], method
