"""The interactive page (resources/web, docs/page-format.md) in headless Chromium: pages written by
`alignscope-cli export --format html` and `export-lesson` are opened offline from file://, driven
with keys, and checked on what they draw (rows after N steps, the framed peak, the candidates'
text, the </s> column's row sums), with no console error and no request but the page itself.
Their data is checked against the schema (python3-jsonschema)."""

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Browser, assert_framed_on_screen, available  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "resources" / "web"
CLI = Path(os.environ.get("ALIGNSCOPE_CLI") or REPO / "build" / "app" / "alignscope-cli")
SENTENCE = "The red car is very fast."
FORCED = "The red car is very fast. ||| La voiture rouge est très rapide."
LONG = ("The committee said on Tuesday that the new bridge across the river would open to traffic "
        "next spring, two years later than planned by the city.")

pytestmark = pytest.mark.skipif(available() is not None, reason=available() or "")


def cli(*args, check=True, **kw):
    result = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, timeout=600, **kw)
    if check:
        assert result.returncode == 0, f"alignscope-cli {' '.join(map(str, args))}: {result.returncode}\n{result.stderr[-3000:]}"
    return result


def page_data(path: Path) -> dict:
    """The JSON a page embeds."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" class="alignscope-data">(.*?)</script>', text, re.S)
    assert m, f"{path} embeds no data"
    return json.loads(m.group(1))


def export(tmp: Path, lines, *args) -> list:
    folder = tmp / "out"
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli("export", "--format", "html", "--input", tmp / "in.txt", "--out", folder, "--no-progress", *args)
    return sorted(folder.glob("*.html"))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    tmp = tmp_path_factory.mktemp("pages")
    return dict(zip(["greedy", "forced"], export(tmp, [SENTENCE, FORCED])))


@pytest.fixture(scope="module")
def browser():
    with Browser(1024, 768) as b:
        yield b


def opened(b: Browser, path: Path) -> None:
    b.console()
    b.requests()
    b.open(path)


def assert_clean(b: Browser, path: Path) -> None:
    """No console message of level SEVERE/WARNING, and no request but the page's own file, its own
    data: pictures (which reach no server) and a lesson site's pictures beside it (pictures/)."""
    errors = [m for m in b.console() if m.get("level") in ("SEVERE", "WARNING")]
    assert not errors, f"{path.name}: console: {errors}"
    site_pictures = path.resolve().parent.as_uri() + "/pictures/"
    others = [u[:200] for u in b.requests()
              if u != path.resolve().as_uri() and not u.startswith("data:") and not u.startswith(site_pictures)]
    assert not others, f"{path.name} requested {others}"


def rows(b: Browser) -> int:
    return b.run("return new Set([...document.querySelectorAll('.as-heatmap-panel .as-cell')].map(c => c.dataset.row)).size")


def test_the_renderer_cannot_end_its_own_script_element():
    for name in ("page.js", "page.css"):
        text = (WEB / name).read_text(encoding="utf-8").lower()
        assert "</script" not in text and "<!--" not in text and "</style" not in text, name


def test_exported_data_matches_the_schema_in_html_and_json(pages, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((WEB / "page.schema.json").read_text(encoding="utf-8"))
    for path in pages.values():
        jsonschema.validate(page_data(path), schema)
    cli("export", "--format", "json", "--out", tmp_path, "--no-progress", input=SENTENCE + "\n" + FORCED + "\n")
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
        assert data["rounded"] is None and data["format_version"] == 2


def test_names_are_those_of_the_other_formats(pages):
    assert [p.name for p in pages.values()] == ["0001-the-red-car-is-very-fast.html", "0002-the-red-car-is-very-fast.html"]


def test_steps_grow_the_heatmap_and_frame_each_rows_peak(pages, browser):
    path = pages["greedy"]
    data = page_data(path)
    T = len(data["target_tokens"])
    opened(browser, path)
    assert rows(browser) == T  # an export opens with every step shown
    browser.keys("Home")
    assert rows(browser) == 0
    assert browser.run("return document.querySelector('.as-step').textContent") == f"step 0 of {T}"
    browser.keys("ArrowRight", "ArrowRight", "ArrowRight")
    assert rows(browser) == 3
    peak = browser.run("const p = document.querySelector('.as-heatmap-panel .as-peak'); return [+p.dataset.row, +p.dataset.col]")
    row = data["alpha"][2]
    assert peak == [2, row.index(max(row))]
    browser.keys("ArrowLeft")
    assert rows(browser) == 2
    browser.run("document.querySelector('.as-next').click()")
    assert rows(browser) == 3
    browser.keys("End")
    assert rows(browser) == T
    assert browser.run("return document.querySelector('.as-next').disabled") is True
    assert_clean(browser, path)


def test_candidates_are_the_steps_with_the_chosen_one_marked(pages, browser):
    path = pages["forced"]
    data = page_data(path)
    opened(browser, path)
    browser.keys("Home", "ArrowRight", "ArrowRight")
    shown = browser.run("return [...document.querySelectorAll('.as-candidates li')].map(li => "
                        "[li.querySelector('.as-cand-token').textContent, li.querySelector('.as-cand-p').textContent, "
                        "li.classList.contains('as-chosen')])")
    step = data["steps"][1]
    assert len(step["candidates"]) == 10
    for k, c in enumerate(step["candidates"]):
        assert shown[k][0].startswith(c["token"])
        assert shown[k][1] == f"{c['p']:.3f}"
        assert shown[k][2] == (k == step["chosen"])
    if step["chosen"] < 0:  # forced and not among the top ten: listed after them
        assert shown[-1][2] and shown[-1][0].startswith(step["token"])
    explain = browser.run("return document.querySelector('.as-explain').textContent")
    assert "Query" in explain and "Energies" in explain and "Output" in explain and "Forced:" in explain
    assert_clean(browser, path)


def row_sums(b: Browser):
    return b.run("const out = {}; for (const c of document.querySelectorAll('.as-heatmap-panel .as-cell')) "
                 "{ out[c.dataset.row] = (out[c.dataset.row] || 0) + Number(c.dataset.value); } return Object.values(out)")


def choose(b: Browser, label: str, value: str) -> None:
    b.run("const s = [...document.querySelectorAll('label')].find(l => l.textContent.startsWith(arguments[0])).querySelector('select');"
          "s.value = arguments[1]; s.dispatchEvent(new Event('change'))", label, value)


def test_the_end_column_toggle_keeps_rows_summing_to_what_the_header_says(pages, browser):
    path = pages["greedy"]
    data = page_data(path)
    end = data["end_column"]
    assert data["source_tokens"][end] == "</s>"
    opened(browser, path)
    note = lambda: browser.run("return document.querySelector('.as-sum-note').textContent")  # noqa: E731
    assert "Each row sums to 1" in note()
    assert all(abs(s - 1) < 2e-3 for s in row_sums(browser))
    choose(browser, "</s> column", "drop")
    assert "1 minus its weight on </s>" in note()
    sums = row_sums(browser)
    assert all(abs(s - (1 - row[end])) < 2e-3 for s, row in zip(sums, data["alpha"]))
    assert browser.run("return document.querySelectorAll('.as-heatmap-panel .as-col-label').length") == len(data["source_tokens"]) - 1
    choose(browser, "</s> column", "renormalize")
    assert "renormalised" in note() and "each sums to 1" in note()
    assert all(abs(s - 1) < 1e-6 for s in row_sums(browser))
    printed = browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-row-sum')].map(t => t.textContent)")
    assert set(printed) == {"1.000"}
    choose(browser, "</s> column", "keep")
    assert_clean(browser, path)


def test_words_merge_the_pieces(pages, browser):
    path = pages["greedy"]
    data = page_data(path)
    opened(browser, path)
    browser.run("const w = document.querySelector('input[type=checkbox]'); w.click()")
    labels = browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-col-label')].map(t => t.textContent)")
    assert labels == data["words"]["source"]
    values = browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-cell')].map(c => +c.dataset.value)")
    flat = [v for row in data["words"]["alpha"] for v in row]
    assert len(values) == len(flat) and all(abs(a - b) < 2e-3 for a, b in zip(values, flat))
    assert_clean(browser, path)


def test_a_link_rules_links_are_dots_on_their_cells_over_tokens_and_words(tmp_path, browser):
    """export --links: the page marks the cells of the linked words (every piece's cell over tokens,
    the word's cell over words), as the app's View > Links does; a page without a rule marks none."""
    page = export(tmp_path, [FORCED], "--links", "argmax-skip-eos")[0]
    data = page_data(page)
    assert data["link_rule"] == "argmax-skip-eos"
    links = {tuple(map(int, p.split("-"))) for p in data["links"].split()}
    assert len(links) == len(data["words"]["target"])  # </s> skipped: every target word links one
    opened(browser, page)
    browser.keys("End")
    dots = "return [...document.querySelectorAll('.as-heatmap-panel .as-link')].map(c => [+c.dataset.row, +c.dataset.col])"
    sw, tw = data["source_words"], data["target_words"]
    expected = {(r, c) for r, t in enumerate(tw) for c, s in enumerate(sw) if (s, t) in links}
    assert {tuple(x) for x in browser.run(dots)} == expected
    assert "Dots: the word links of argmax-skip-eos." in browser.run("return document.querySelector('.as-sum-note').textContent")
    browser.run("document.querySelector('input[type=checkbox]').click()")  # View > Words
    assert {tuple(x) for x in browser.run(dots)} == {(t, s) for s, t in links}
    browser.keys("Home")
    assert browser.run(dots) == []  # no row shown, no cell to mark
    assert_clean(browser, page)
    plain = export(tmp_path / "plain", [FORCED])[0]
    opened(browser, plain)
    assert browser.run(dots) == []


def test_export_options_set_how_the_page_opens(tmp_path, browser):
    page = export(tmp_path, [SENTENCE], "--words", "--colormap", "grey", "--end-column", "drop")[0]
    opened(browser, page)
    state = browser.run("return [document.querySelector('input[type=checkbox]').checked, "
                        "[...document.querySelectorAll('select')].map(s => s.value)]")
    assert state == [True, ["attention", "drop", "grey"]]
    # The languages the model declares, by name.
    assert browser.run("return [document.querySelector('.as-heatmap-panel h2').textContent, document.querySelector('.as-axis-x').textContent, "
                       "document.querySelector('.as-heatmap-panel .as-axis-y').textContent]") == [
        "Attention weights \u03b1 over words", "source words (English, merged from pieces: a word's columns summed)",
        "target (French, decoded), words: rows averaged"]
    assert_clean(browser, page)


def test_hover_shows_the_exact_weight_and_grey_changes_the_scale(pages, browser):
    path = pages["greedy"]
    data = page_data(path)
    opened(browser, path)
    browser.run("document.querySelector('.as-heatmap-panel .as-cell[data-row=\"1\"][data-col=\"2\"]')"
                ".dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))")
    text = browser.run("return document.querySelector('.as-readout').textContent")
    assert text.endswith(f"= {data['alpha'][1][2]:.4f}")
    before = browser.run("return document.querySelector('.as-cell').getAttribute('fill')")
    choose(browser, "Colours", "grey")
    after = browser.run("return document.querySelector('.as-cell').getAttribute('fill')")
    r, g, b = map(int, re.findall(r"\d+", after))
    assert before != after and r == g == b


def test_focus_is_visible_and_the_controls_are_labelled(pages, browser):
    opened(browser, pages["greedy"])
    browser.keys("Home")
    browser.run("document.querySelector('.as-next').focus()")
    browser.keys("Tab")  # from the keyboard: :focus-visible
    style = browser.run("const s = getComputedStyle(document.activeElement); return [document.activeElement.textContent, s.outlineStyle, s.outlineWidth]")
    assert style[0].startswith("End") and style[1] != "none" and style[2] != "0px"
    unlabelled = browser.run("return [...document.querySelectorAll('select, input')].filter(e => !e.labels || !e.labels.length).length")
    assert unlabelled == 0


def test_phone_width_has_no_sideways_scrolling_of_the_page(pages):
    with Browser(390, 844) as b:
        opened(b, pages["greedy"])
        widths = b.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1]
        assert_clean(b, pages["greedy"])


def test_beam_and_attribution_are_on_the_page(tmp_path, browser):
    beam = export(tmp_path / "b", [SENTENCE], "--beam", "3")[0]
    data = page_data(beam)
    assert len(data["beam"]) == 3 and data["beam_hypothesis"] == 0
    opened(browser, beam)
    hyps = browser.run("return [...document.querySelectorAll('.as-beam .as-hyp')].map(h => h.textContent)")
    assert hyps == [h["text"] for h in data["beam"]]
    assert_clean(browser, beam)
    grad = export(tmp_path / "g", [SENTENCE], "--heatmap", "grad-x-input")[0]
    data = page_data(grad)
    assert data["attribution"]["method"] == "grad-x-input" and data["options"]["heatmap"] == "grad-x-input"
    opened(browser, grad)
    title = browser.run("return document.querySelector('.as-heatmap-panel h2').textContent")
    assert title.startswith("grad-x-input attribution")
    assert "Attribution" in browser.run("return document.querySelector('.as-explain').textContent")
    assert_clean(browser, grad)


def test_a_30_token_sentence_page_stays_small(tmp_path):
    page = export(tmp_path, [LONG])[0]
    data = page_data(page)
    assert len(data["source_tokens"]) >= 30
    assert page.stat().st_size <= 300_000, f"{page.stat().st_size} bytes"


def hostile_model(folder: Path) -> Path:
    """A tiny model whose names and vocabulary are markup."""
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(REPO / "python"))
    import alignscope
    from alignscope.text import SPECIALS
    torch.manual_seed(0)
    src = SPECIALS + ["the", "car", "<b>bold</b>"]
    tgt = SPECIALS + ["la", "voiture", "<img src=x onerror=alert(1)>", "</script>", "<!--"]
    arch = alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=12, attention_size=6, readout_size=8)
    model = alignscope.Seq2SeqAttention(len(src), len(tgt), arch, seed=3).eval()
    path = folder / "hostile.pt"
    tokenizer = {"kind": "whitespace"}
    alignscope.export(model, src, tgt, str(path), name="</script><script>alert(2)</script>",
                      src_tokenizer=tokenizer, tgt_tokenizer=tokenizer)
    return path


def test_markup_in_tokens_and_names_stays_text(tmp_path, browser):
    model = hostile_model(tmp_path)
    page = export(tmp_path, ["the <b>bold</b> car ||| la </script> voiture"], "--model", model)[0]
    opened(browser, page)
    assert browser.alert_text() is None
    texts = browser.run("return [document.querySelector('h1').textContent, document.querySelector('.as-source').textContent, "
                        "[...document.querySelectorAll('.as-candidates .as-cand-token')].map(t => t.textContent).join(' | ')]")
    assert texts[0] == "AlignScope: </script><script>alert(2)</script>"
    assert texts[1] == "the <b>bold</b> car"
    assert "<img src=x onerror=alert(1)>" in texts[2] and "</script>" in texts[2]
    counts = browser.run("return [document.querySelectorAll('img').length, document.querySelectorAll('script').length, "
                         "[...document.querySelectorAll('b')].filter(b => b.textContent === 'bold').length]")
    assert counts == [0, 3, 0]  # no element made of the data: the page's three scripts (messages, data, code), Step explained's own <b> only
    assert browser.alert_text() is None
    assert_clean(browser, page)


def cells_of_page(b: Browser):
    """(colour, value) of each heatmap cell on screen, sampled at its centre from a screenshot."""
    from PIL import Image
    shot = Image.open(io.BytesIO(b.screenshot())).convert("RGB")
    # each cell's centre from its <rect>'s place in the map's SVG (the cells are painted on the
    # canvas under it; the rects are not drawn)
    cells = b.run("const m = document.querySelector('.as-heatmap-panel .as-heatmap').getBoundingClientRect();"
                  "return [...document.querySelectorAll('.as-heatmap-panel .as-cell')].map(c => { const x = +c.getAttribute('x'), "
                  "y = +c.getAttribute('y'), w = +c.getAttribute('width'); "
                  "return [m.left + x + w / 2, m.top + y + w / 2, +c.dataset.row, +c.dataset.col]; })")
    return {(r, c): shot.getpixel((int(x), int(y))) for x, y, r, c in cells}


def first_run(counts):
    """[begin, end] of the first run of non-zero counts."""
    begin = next(i for i, n in enumerate(counts) if n)
    end = begin
    while end + 1 < len(counts) and counts[end + 1]:
        end += 1
    return begin, end


def cells_of_figure(png: Path, rows: int, cols: int):
    """The colour at the centre of each cell of a PNG figure's heatmap: the first run of columns
    holding strongly coloured (non-grey) pixels, left of the colour bar, and its rows."""
    from PIL import Image
    img = Image.open(png).convert("RGB")
    w, h = img.size
    px = img.load()
    coloured = [[max(px[x, y]) - min(px[x, y]) > 40 for x in range(w)] for y in range(h)]
    left, right = first_run([sum(coloured[y][x] for y in range(h)) for x in range(w)])
    top, bottom = first_run([sum(coloured[y][left:right + 1]) for y in range(h)])
    cw, ch = (right - left + 1) / cols, (bottom - top + 1) / rows
    return {(r, c): px[int(left + (c + 0.5) * cw), int(top + (r + 0.5) * ch)] for r in range(rows) for c in range(cols)}


def test_the_finished_heatmap_has_the_png_figures_cells_and_colours(pages, browser, tmp_path):
    pytest.importorskip("PIL")
    path = pages["forced"]
    data = page_data(path)
    cli("export", "--format", "png", "--out", tmp_path, "--no-progress", "--no-encoder-states", "--dpi", "96", input=FORCED + "\n")
    png = next(tmp_path.glob("*.png"))
    opened(browser, path)
    browser.keys("End")
    page = cells_of_page(browser)
    T, S = len(data["target_tokens"]), len(data["source_tokens"])
    assert set(page) == {(r, c) for r in range(T) for c in range(S)}
    figure = cells_of_figure(png, T, S)
    # Cell centres stay clear of the page's frames (the newest row's edge, the peak's inset border).
    worst = max(max(abs(a - b) for a, b in zip(page[k], figure[k])) for k in page)
    assert worst <= 6, f"largest channel difference {worst}"


LESSONS = sorted((REPO / "resources" / "lessons").glob("*.json"))


@pytest.fixture(scope="module")
def lesson_sites(tmp_path_factory):
    """Every shipped lesson exported once: {stem: (folder, the lesson's JSON)}."""
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    assert LESSONS
    tmp = tmp_path_factory.mktemp("lessons")
    sites = {}
    for lesson in LESSONS:
        cli("export-lesson", lesson, "--out", tmp / lesson.stem)
        sites[lesson.stem] = (tmp / lesson.stem, json.loads(lesson.read_text(encoding="utf-8")))
    return sites


def test_every_shipped_lesson_exports_and_its_pages_turn(lesson_sites):
    with Browser(1024, 768) as b:
        for out, spec in lesson_sites.values():
            pages = sorted(out.glob("page-*.html"))
            assert len(pages) == len(spec["pages"]) and (out / "index.html").is_file()
            index = (out / "index.html").read_text(encoding="utf-8")
            assert "&lt;sub&gt;" not in index and index.count('<a href="page-') == len(pages)
            for k, (page, want) in enumerate(zip(pages, spec["pages"])):
                data = page_data(page)
                assert data["lesson"]["page"] == k + 1 and data["source_text"] == want["source"]
                if "target" not in want and not want.get("run") and not want.get("beam") and "timeline" not in want:
                    assert data["options"]["step"] == want.get("steps", 0)
                if "heatmap" in want and want["heatmap"] != "attention":
                    assert data["attribution"]["method"] == want["heatmap"]
                if "compare" in want:
                    assert data["comparison"]["alpha"]
                if "timeline" in want:
                    assert len(data["timeline"]["snapshots"]) > 1
            # Open every page, and turn one with Page Down as a clicker does. The text reads as the
            # app's: its italics and code are elements, built from the tree, and no tag shows as text.
            for page, want in zip(pages, spec["pages"]):
                opened(b, page)
                assert_clean(b, page)
                shown = b.run("var t = document.querySelector('.as-lesson-text'); return [t.textContent, "
                              "t.querySelectorAll('i').length, t.querySelectorAll('code, tt').length, "
                              "t.querySelectorAll('script, [onerror], [onclick]').length]")
                assert "<i>" not in shown[0] and "&lt;" not in shown[0] and shown[3] == 0, page
                assert shown[1] == want["text"].count("<i>") + want["text"].count("<em>"), page
                assert shown[2] == want["text"].count("<code>") + want["text"].count("<tt>"), page
                # Pictures are the site's files (each once, in pictures/), and they show.
                pictures = b.run("return [...document.querySelectorAll('.as-lesson img')].map(i => "
                                 "[i.getAttribute('src'), i.complete && i.naturalWidth > 0])")
                assert len(pictures) == ("image" in want) + want["text"].count("<img"), page
                assert all(src.startswith("pictures/") and shown for src, shown in pictures), (page, pictures)
            opened(b, pages[0])
            if len(pages) > 1:
                b.keys("PageDown")
                assert b.run("return location.pathname").endswith("page-02.html")
                b.keys("PageUp")
                assert b.run("return location.pathname").endswith("page-01.html")


def test_the_page_has_the_figures_axis_titles_colour_bar_title_and_encoder_panel(pages, browser):
    """As the PNG figure: "source (English)" over the columns, "target (French, decoded)" beside
    the rows, "attention weight α" on the colour bar, and the encoder states under the heatmap, a
    column of h_i per source token under that token's column, with c_t and s_t beside them; a
    step redraws c_t and s_t only (the h_i canvas stays the same element)."""
    for kind, how in [("greedy", "decoded"), ("forced", "given")]:
        opened(browser, pages[kind])
        data = page_data(pages[kind])
        enc = data["encoder"]
        assert len(base64.b64decode(enc["states"])) == enc["size"] * len(data["source_tokens"])
        assert all(len(base64.b64decode(s["context"])) == enc["size"] for s in data["steps"])
        titles = browser.run("return [document.querySelector('.as-axis-x').textContent, document.querySelector('.as-heatmap-panel .as-axis-y').textContent, "
                             "document.querySelector('.as-colorbar .as-scale-title').textContent]")
        assert titles == ["source (English)", f"target (French, {how})", "attention weight \u03b1"], titles
        browser.keys("Home")
        geo = browser.run("""
            var cells = document.querySelectorAll('.as-hm-cols .as-col-label').length;
            var hm = document.querySelector('.as-heatmap').getBoundingClientRect();
            var enc = document.querySelector('.as-enc-cells').getBoundingClientRect();
            var now = document.querySelector('.as-enc-now').getBoundingClientRect();
            var labels = document.querySelector('.as-enc-side-labels').textContent;
            return [cells, hm.left, enc.left, enc.width, now.left, labels, enc.top - hm.bottom];""")
        cols = len(data["source_tokens"])
        cell = browser.run("return Number(document.querySelector('.as-cell, .as-heatmap rect').getAttribute('width'))") or 0
        assert geo[0] == cols and abs(geo[1] - geo[2]) <= 1, geo
        assert geo[5] == "cs0" and geo[4] >= geo[2] + geo[3] - 1 and geo[6] > 0, geo
        canvas = browser.run("window.asEnc = document.querySelector('.as-enc-cells'); return true")
        browser.keys("ArrowRight")
        assert browser.run("return document.querySelector('.as-enc-cells') === window.asEnc && "
                           "document.querySelector('.as-enc-side-labels').textContent === 'ctst'")
        assert canvas and cell >= 0
        said = browser.run("var c = document.querySelector('.as-enc-cells'), r = c.getBoundingClientRect(); "
                           "c.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + 1, clientY: r.top + 1, bubbles: true})); "
                           "return document.querySelector('.as-encoder-panel .as-note').textContent")
        assert said.startswith("h of \u2581The, number 1 of " + str(enc["size"]) + ": "), said
        # Over words the encoder panel says why it shows nothing: its columns are tokens.
        browser.run("document.querySelector('input[type=checkbox]').click()")
        assert browser.run("return [document.querySelectorAll('.as-enc-cells').length, document.querySelector('.as-encoder-panel .as-note').textContent]") == [
            0, "The encoder reads tokens, not words: turn Words off to see its states."]
        browser.run("document.querySelector('input[type=checkbox]').click()")
        assert browser.run("return document.querySelectorAll('.as-enc-cells').length") == 1
        assert_clean(browser, pages[kind])


# What a lesson page's text names, and where the page draws it (its CSS selector): a page that
# talks of a panel the exported site does not draw fails (issue 58, finding 4).
NAMED = {"lower panel": ".as-encoder-panel canvas.as-enc-cells", "c_t column": ".as-encoder-panel canvas.as-enc-now",
         "shown at the right": ".as-encoder-panel canvas.as-enc-now", "h_i": ".as-encoder-panel",
         "candidates": ".as-candidates-panel", "step explained": ".as-explain", "purple bars": ".as-part-energies svg",
         "heatmap": ".as-heatmap-box svg.as-heatmap", "hypothes": ".as-beam button.as-hyp", "slider": "input[type=range]",
         "curve": ".as-loss-panel polyline"}
PANELS = {"heatmap": ".as-heatmap-panel", "encoder": ".as-encoder-panel", "candidates": ".as-candidates-panel",
          "beam": ".as-beam-panel", "explain": ".as-explain"}


def test_every_lesson_page_draws_the_panels_it_names_and_brings_them_into_view(lesson_sites):
    """Each page's "highlight" is a panel the page draws, framed; every panel its text names is
    there and has a size; the framed panel (or the Step explained part it marks) is in view once
    the page is laid out, at 1024x768 and on a phone."""
    for width, height in [(1024, 768), (375, 812)]:
        with Browser(width, height) as b:
            for stem, (out, spec) in lesson_sites.items():
                for k, want in enumerate(spec["pages"]):
                    page = out / f"page-{k + 1:02d}.html"
                    opened(b, page)
                    text = page_data(page)["lesson"]["text"].lower()
                    for phrase, css in NAMED.items():
                        if phrase in text:
                            size = b.run("var e = document.querySelector(arguments[0]); if (!e) return null; "
                                         "var r = e.getBoundingClientRect(); return [r.width, r.height];", css)
                            assert size and size[0] > 0 and size[1] > 0, f"{stem} page {k + 1} names '{phrase}': no {css} drawn"
                    name = want.get("highlight")
                    if not name:
                        continue
                    assert name in PANELS, f"{stem} page {k + 1}: no page panel is called '{name}'"
                    framed = b.run("return Array.from(document.querySelectorAll('.as-highlight')).map(e => e.className)")
                    assert any(PANELS[name][1:] in c.split() for c in framed), f"{stem} page {k + 1}: {name} is not drawn and framed ({framed})"
                    b.run("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                    assert_framed_on_screen(b, name, want.get("explain"), f"{stem} page {k + 1} at {width}px")
                    assert_clean(b, page)


def test_the_lesson_index_renders_its_markup_and_page_down_opens_page_1(lesson_sites):
    out, spec = lesson_sites["02-attention-by-hand"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "e_{1,i}" not in index and "v^T" not in index
    assert "e<sub>1,i</sub>" in index and "v<sup>T</sup>" in index
    with Browser(1024, 768) as b:
        opened(b, out / "index.html")
        assert b.run("return document.querySelectorAll('ol a sub').length") > 0
        assert b.run("return document.querySelectorAll('img, script[src]').length") == 0
        assert_clean(b, out / "index.html")
        b.keys("PageDown")
        assert b.run("return location.pathname").endswith("page-01.html")


def test_lesson_7s_slider_moves_the_candidates_step_explained_and_the_loss_curve(lesson_sites):
    """Each snapshot brings its own numbers: at the first the candidates and Step explained show
    the untrained model's, at the last the trained one's; the loss curve is drawn, marked at the
    snapshot shown."""
    out, spec = lesson_sites["07-how-attention-learns-to-align"]
    page = out / "page-01.html"
    data = page_data(page)
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, json.loads((WEB / "page.schema.json").read_text(encoding="utf-8")))
    snaps = data["timeline"]["snapshots"]
    assert all(len(s["steps"]) == len(data["target_tokens"]) for s in snaps)
    assert len(data["timeline"]["loss"]) > 10 and all(isinstance(s["loss"], float) for s in snaps)
    with Browser(1024, 768) as b:
        opened(b, page)
        b.keys("Home", "ArrowRight")

        def shown():
            return b.run("return [document.querySelector('.as-candidates').textContent, document.querySelector('.as-explain').textContent, "
                         "document.querySelector('.as-loss-mark').getAttribute('x1'), document.querySelector('.as-snapshot-label').textContent]")

        def slide(k):
            b.run("var r = document.querySelector('input[type=range]'); r.value = arguments[0]; r.dispatchEvent(new Event('input'));", k)

        slide(0)
        first = shown()
        slide(len(snaps) - 1)
        last = shown()
        for a, z in zip(first, last):
            assert a != z
        p0, p1 = snaps[0]["steps"][0]["candidates"][0]["p"], snaps[-1]["steps"][0]["candidates"][0]["p"]
        assert f"{p0:.3f}" in first[0] and f"{p1:.3f}" in last[0] and p1 > p0
        assert b.run("return document.querySelector('.as-loss-panel polyline').getAttribute('points').split(' ').length") > 10
        assert_clean(b, page)


# Issue 58: what a student meets at every size.
FORTY = (LONG + " The mayor was not pleased at all. ||| La commission a déclaré mardi que le nouveau pont sur la rivière "
         "ouvrirait au printemps prochain, deux ans plus tard que prévu par la ville. Le maire était fâché.")  # 40 x 40 tokens
SIZES = [(375, 812), (1024, 768), (1920, 1080)]


@pytest.fixture(scope="module")
def long_pages(tmp_path_factory):
    """A 30-token sentence, a forced pair of 40 x 40 tokens, and a 60-token sentence (LONG twice)."""
    if not CLI.is_file():
        pytest.skip(f"alignscope-cli is not built ({CLI})")
    tmp = tmp_path_factory.mktemp("long")
    return dict(zip(["thirty", "forty", "sixty"], export(tmp, [LONG, FORTY, LONG + " " + LONG])))


def labels_outside(b: Browser, css: str):
    """Each text of the SVGs matching `css` whose box leaves its SVG's box: [text, left, right, bottom] overhangs."""
    return b.run("const out = []; for (const c of document.querySelectorAll(arguments[0])) { const box = c.getBoundingClientRect(); "
                 "for (const t of c.querySelectorAll('text')) { if (t.getAttribute('visibility') === 'hidden') continue; "
                 "const r = t.getBoundingClientRect(); if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || "
                 "r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) out.push([t.textContent, box.left - r.left, "
                 "r.right - box.right, r.bottom - box.bottom]); } } return out", css)


def test_step_explained_charts_keep_their_labels_inside_at_every_size(long_pages):
    """Token names under the bars keep their start, and a negative energy its minus sign."""
    path = long_pages["thirty"]
    data = page_data(path)
    T = len(data["target_tokens"])
    for width, height in SIZES:
        with Browser(width, height) as b:
            opened(b, path)
            b.keys("Home")
            for t in sorted({1, 2, T // 2, T}):
                b.run("document.querySelector('.alignscope-page').alignscope.go(arguments[0])", t)
                assert b.run("return document.querySelectorAll('.as-explain .as-chart').length") >= 2
                assert labels_outside(b, ".as-explain .as-chart") == [], f"{width}x{height}, step {t}"
                energies = data["steps"][t - 1]["explain"].get("energies")
                if energies and min(energies) < 0:
                    ticks = b.run("return [...document.querySelector('.as-part-energies .as-chart').querySelectorAll('.as-tick')]"
                                  ".map(t => t.textContent)")
                    assert ticks[-1] == f"{min(energies):.2f}" and ticks[-1].startswith("-")
            assert_clean(b, path)


def test_a_beam_page_calls_no_step_forced_and_shows_the_chosen_hypothesis(tmp_path, browser):
    page = export(tmp_path, [SENTENCE], "--beam", "3")[0]
    data = page_data(page)
    assert not any(s["forced"] for s in data["steps"])
    assert all(len(h["alpha"]) == len(h["tokens"]) for h in data["beam"])
    opened(browser, page)
    browser.keys("Home")
    for _ in data["steps"]:
        browser.keys("ArrowRight")
        text = browser.run("return document.querySelector('.as-candidates-panel').textContent + document.querySelector('.as-explain').textContent")
        assert "forced" not in text.lower() and "Beam search kept:" in text
    # Choosing a hypothesis shows its alignment, as the app's beam panel does; choosing the first again its steps.
    other = data["beam"][1]
    browser.run("document.querySelectorAll('.as-beam button.as-hyp')[1].click()")
    assert rows(browser) == len(other["tokens"])
    values = browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-cell')].map(c => +c.dataset.value)")
    assert values == [v for row in other["alpha"] for v in row]
    shown = browser.run("return [document.querySelector('.as-translation').textContent, "
                        "[...document.querySelectorAll('.as-beam button')].map(b => b.getAttribute('aria-pressed'))]")
    assert shown == [other["text"], ["false", "true", "false"]]
    assert "hypothesis 1" in browser.run("return document.querySelector('.as-explain').textContent")
    browser.run("document.querySelectorAll('.as-beam button.as-hyp')[0].click()")
    assert rows(browser) == len(data["target_tokens"])
    assert browser.run("return document.querySelector('.as-translation').textContent") == data["translation"]
    assert "Beam search kept:" in browser.run("return document.querySelector('.as-explain').textContent")
    assert_clean(browser, page)


def test_step_0_gives_no_target_away_and_its_message_reads_as_a_line(pages, browser):
    path = pages["greedy"]
    opened(browser, path)
    browser.keys("Home")
    shown = "return [...document.querySelectorAll('.as-heatmap-panel .as-row-label')].filter(t => t.getAttribute('visibility') !== 'hidden').length"
    assert browser.run(shown) == 0
    box = browser.run("const li = document.querySelector('.as-candidates li'), ol = li.parentElement; "
                      "return [li.textContent, li.getBoundingClientRect().height, ol.getBoundingClientRect().width, "
                      "parseFloat(getComputedStyle(li).lineHeight)]")
    assert box[0].startswith("Press Step") and box[1] <= 2.5 * box[3], box  # one line or two, not a word a line
    browser.keys("ArrowRight", "ArrowRight")
    assert browser.run(shown) == 2
    assert_clean(browser, path)


def test_a_step_draws_only_its_row(long_pages, browser):
    """The rows drawn stay the same elements from step to step; a step adds (or removes) its own."""
    opened(browser, long_pages["sixty"])
    browser.keys("Home", "ArrowRight", "ArrowRight")
    browser.run("document.querySelectorAll('.as-heatmap-panel .as-row').forEach(g => g.dataset.kept = 'yes')")
    browser.keys("ArrowRight")
    assert browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-row')].map(g => g.dataset.kept || '')") == ["yes", "yes", ""]
    browser.keys("ArrowLeft", "ArrowLeft")
    assert browser.run("return [...document.querySelectorAll('.as-heatmap-panel .as-row')].map(g => g.dataset.kept || '')") == ["yes"]
    assert rows(browser) == 1


def box_geometry(b: Browser):
    return b.run("const x = document.querySelector('.as-heatmap-panel .as-heatmap-box'), r = x.getBoundingClientRect(); "
                 "return {sw: x.scrollWidth, cw: x.clientWidth, sh: x.scrollHeight, ch: x.clientHeight, "
                 "left: r.left, top: r.top, right: r.left + x.clientWidth, bottom: r.top + x.clientHeight}")


def test_long_sentences_fit_the_room_pin_their_axes_and_follow_the_newest_row(long_pages):
    forty, sixty = page_data(long_pages["forty"]), page_data(long_pages["sixty"])
    assert len(forty["source_tokens"]) == len(forty["target_tokens"]) == 40
    assert len(sixty["target_tokens"]) >= 60
    with Browser(1024, 768) as b:
        opened(b, long_pages["forty"])
        g = box_geometry(b)
        assert g["sw"] <= g["cw"] and g["sh"] <= g["ch"] and g["bottom"] <= 768, g  # the whole 40 x 40 matrix, in the window
        assert labels_outside(b, ".as-heatmap-panel .as-hm-cols, .as-heatmap-panel .as-hm-rows") == []
        opened(b, long_pages["sixty"])
        b.keys("Home", "End")
        g = box_geometry(b)
        assert g["sh"] > g["ch"] and g["bottom"] <= 768  # it must scroll, within the window
        frame = b.run("const r = document.querySelector('.as-heatmap-panel .as-row-frame').getBoundingClientRect(); return [r.top, r.bottom]")
        peak = b.run("const r = document.querySelector('.as-heatmap-panel .as-peak').getBoundingClientRect(); return [r.left, r.right]")
        assert g["top"] <= frame[0] and frame[1] <= g["bottom"] + 1 and frame[1] <= 768, (frame, g)  # the newest row in view
        assert g["left"] <= peak[0] and peak[1] <= g["right"] + 1, (peak, g)
        # The axes stay at the box's edges while the cells scroll under them.
        b.run("const x = document.querySelector('.as-heatmap-panel .as-heatmap-box'); x.scrollTop = 137; x.scrollLeft = 59")
        pins = b.run("const q = s => document.querySelector('.as-heatmap-panel ' + s).getBoundingClientRect(); "
                     "return [q('.as-hm-cols').top, q('.as-hm-rows').left, q('.as-hm-corner').top, q('.as-hm-corner').left]")
        box = b.run("const r = document.querySelector('.as-heatmap-panel .as-heatmap-box').getBoundingClientRect(); return [r.top, r.left]")
        assert all(abs(p - e) <= 1.5 for p, e in zip(pins, [box[0], box[1], box[0], box[1]])), (pins, box)
        assert_clean(b, long_pages["sixty"])
    # On a phone the map scrolls further than the box is wide: the axes stay pinned all the way
    # (a sticky label sticks only inside its grid, which was the box's width)
    with Browser(375, 812) as b:
        opened(b, long_pages["sixty"])
        b.keys("Home", "End")
        b.run("const x = document.querySelector('.as-heatmap-panel .as-heatmap-box'); x.scrollTop = x.scrollHeight; x.scrollLeft = x.scrollWidth")
        far = b.run("const x = document.querySelector('.as-heatmap-panel .as-heatmap-box'); return x.scrollLeft - x.clientWidth")
        assert far > 0, "the map is not wider than two boxes at 375 pixels: the check proves nothing"
        pins = b.run("const q = s => document.querySelector('.as-heatmap-panel ' + s).getBoundingClientRect(); "
                     "return [q('.as-hm-cols').top, q('.as-hm-rows').left, q('.as-hm-corner').top, q('.as-hm-corner').left]")
        box = b.run("const r = document.querySelector('.as-heatmap-panel .as-heatmap-box').getBoundingClientRect(); return [r.top, r.left]")
        assert all(abs(p - e) <= 1.5 for p, e in zip(pins, [box[0], box[1], box[0], box[1]])), (pins, box)


def tap(b: Browser, css: str, x: int = 0, y: int = 0) -> None:
    """A finger's tap on the first element matching `css`, (x, y) pixels from its centre (WebDriver
    touch pointer actions)."""
    element = b._call("POST", b._s("/element"), {"using": "css selector", "value": css})
    origin = {"element-6066-11e4-a52e-4f735466cecf": next(iter(element.values()))}
    b._call("POST", b._s("/actions"), {"actions": [{"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": origin, "x": x, "y": y},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})


def tap_cell(b: Browser, row: int, col: int) -> None:
    """A finger's tap on the heatmap's cell (row, col), where it is painted (the map's canvas, under
    its SVG): the point is the cell's centre, found from its <rect>'s place in the SVG."""
    at = b.run("const m = document.querySelector('.as-heatmap-panel .as-heatmap'), r = m.getBoundingClientRect(), "
               "c = m.querySelector('.as-cell[data-row=\"' + arguments[0] + '\"][data-col=\"' + arguments[1] + '\"]'), "
               "w = +c.getAttribute('width'); return [+c.getAttribute('x') + w / 2 - r.width / 2, +c.getAttribute('y') + w / 2 - r.height / 2]",
               row, col)
    tap(b, ".as-heatmap-panel .as-heatmap", int(at[0]), int(at[1]))


def test_a_phone_shows_a_short_sentences_heatmap_whole_and_a_tap_shows_a_weight(pages):
    data = page_data(pages["forced"])
    assert len(data["source_tokens"]) <= 15
    with Browser(375, 812) as b:
        for path in pages.values():
            opened(b, path)
            g = box_geometry(b)
            assert g["sw"] <= g["cw"], f"{path.name}: the heatmap scrolls sideways ({g})"
            # One column: the step's candidates and Step explained come right under the heatmap.
            tops = b.run("const q = s => document.querySelector(s).getBoundingClientRect(); "
                         "return [q('.as-heatmap-panel').bottom, q('.as-candidates-panel').top, q('.as-candidates-panel').bottom, q('.as-explain').top]")
            assert 0 <= tops[1] - tops[0] <= 30 and 0 <= tops[3] - tops[2] <= 30, tops
        tap_cell(b, 1, 2)
        assert b.run("return document.querySelector('.as-readout').textContent").endswith(f"= {data['alpha'][1][2]:.4f}")
        assert_clean(b, pages["forced"])
