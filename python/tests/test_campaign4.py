"""The fourth fuzz campaign's cases on the Python side (issue 59, ../shared/fuzz/repro/campaign4/,
docs/fuzz-campaign4.md): a source with nothing visible is a blank line, refused by show() and the
decoder as Model::tokenizeSource refuses it, by the same rule as Tokenizer::isBlank."""
from pathlib import Path

import pytest

import alignscope
from alignscope.decoding import BLANK_SOURCE, LoadedModel
from alignscope.page import script_safe
from alignscope.text import is_blank

ROOT = Path(__file__).resolve().parents[2]
DATES = str(ROOT / "models" / "lesson-dates.pt")

# Characters either side of the rule: spaces and line separators, controls and format characters,
# default-ignorable ones of other categories; then visible ones (letters, a combining accent,
# private use, an emoji).
BLANK = ["\t", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000", "\u200b", "\u200d", "\u2060", "\ufeff",
         "\u00ad", "\u0085", "\u0001", "\u034f", "\u115f", "\u3164", "\ufe0f", "\uffa0", "\U000e0001", "\U000e0100",
         "\U0001d173", "\u180e", "\ufff9"]
VISIBLE = ["a", ".", "\u00e9", "\u4e00", "\U0001f600", "\u0300", "\ue000", "\u2061x", "\u200ba"]


def test_is_blank_is_the_tokenizers_rule(run_cli, tmp_path):
    """translate prints a blank line, with no message, for the lines Tokenizer::isBlank calls blank;
    every other line is translated or named as failed. is_blank must say the same of each."""
    lines = [c * 2 for c in BLANK] + VISIBLE
    source = tmp_path / "lines.txt"
    source.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    result = run_cli("translate", "--no-progress", "--batch", "1", "--model", DATES, "-i", source, check=False)
    out = result.stdout.split("\n")
    failed = {int(line.split(":")[0].split()[1]) for line in result.stderr.splitlines() if line.startswith("line ")}
    for k, line in enumerate(lines, start=1):
        cpp_blank = out[k - 1] == "" and k not in failed
        assert is_blank(line) == cpp_blank, (ascii(line), out[k - 1], result.stderr)
        assert is_blank(line) == (line in [c * 2 for c in BLANK]), ascii(line)


@pytest.mark.parametrize("source", ["", "   ", "\u2028" * 3, "\u00a0\u2003\u200b\u2060\ufeff", "\u034f\u3164"])
def test_a_source_with_nothing_visible_is_refused(source):
    with pytest.raises(ValueError, match=r"show\(\) needs a source sentence \(this one has nothing visible\)"):
        alignscope.show(DATES, source)
    with pytest.raises(ValueError, match="nothing visible to translate"):
        LoadedModel(DATES).tokenize_source(source)
    assert BLANK_SOURCE.startswith("the sentence has nothing visible")


def test_the_pages_json_escapes_line_separators_as_the_cores():
    text = script_safe({"t": "a\u2028b\u2029c\u0085d<&>"})
    assert all(ch not in text for ch in "\u2028\u2029\u0085<&>")
    assert "\\u2028" in text and "\\u2029" in text and "\\u0085" in text


def test_a_corpus_side_with_nothing_visible_is_no_pair(tmp_path):
    from alignscope.text import read_tsv_by_line
    corpus = tmp_path / "c.tsv"
    corpus.write_text("Go.\tVa !\n\u00a0\u200b\tVa !\nGo.\t\u2028\tCC-BY\nOk.\tD'accord.\n", encoding="utf-8")
    assert read_tsv_by_line(str(corpus)) == [("Go.", "Va !"), None, None, ("Ok.", "D'accord.")]
