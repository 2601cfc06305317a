"""Every kind of model file and input line the fuzz campaign found breaking AlignScope
(../shared/fuzz/repro/README.md) is refused, within 10 s and 500 MB, with a message naming the file:
exit 2 for a file, "line N: ..." and exit 1 for a sentence the model fails on, blank lines for
lines with nothing visible. The files are made here from models/lesson-dates.pt (hostile_models.py)."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hostile_models as hostile

SENTENCE = "the fifth of march , 1998\n"
LIMIT_SECONDS = 10
LIMIT_MEMORY_KB = 500 * 1024


def run_measured(cli: Path, *args, stdin: str = ""):
    """(exit code, stdout, stderr, seconds, peak resident KiB of the CLI and its checking child)."""
    # A fresh Python parent, so RUSAGE_CHILDREN holds this command's processes only.
    probe = ("import resource, subprocess, sys, json\n"
             "r = subprocess.run(sys.argv[1:], input=sys.stdin.read(), capture_output=True, text=True)\n"
             "print(json.dumps([r.returncode, r.stdout, r.stderr, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", probe, str(cli), *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - start
    code, out, err, peak = json.loads(done.stdout)
    return code, out, err, seconds, peak


@pytest.fixture(scope="module")
def original(repo_root) -> Path:
    return repo_root / "models" / "lesson-dates.pt"


# (maker, its arguments): each file must be refused at load, by inspect and by translate alike.
REFUSED_AT_LOAD = {
    "0920-tensor-meta": (hostile.zero_storage, ("src_emb",), "storage"),
    "1104-tensor-meta": (hostile.zero_storage, ("proj_b",), "storage"),
    "1012-tensor-meta": (hostile.zero_storage, ("att_v",), "storage"),
    "1194-storage-length": (hostile.swap_record_lengths, (), "storage"),
    "1361-code-edit-deep": (hostile.deep_code, (), "nests brackets"),
    "0695-pkl-bytes-reduce": (hostile.reduce_on_empty_stack, (), "empty stack"),
    "1237-weights-nonfinite": (hostile.nan_weight, (), "dec_wih"),
    "1287-code-edit-nan": (hostile.nan_log_probs, (), "NaN"),
    "0016-raw-flip-any": (hostile.flip_bytes, (), "checksum"),
    "1303-code-edit-loop": (hostile.step_loops_forever, (), "did not load within"),
    "1407-code-debugpkl-loop": (hostile.encode_loops_forever, (), "encode"),
    "0841-attr-tokenizer": (hostile.tokenizer_setting, ("kind", 7), "'kind' must be a string"),
    "0845-attr-tokenizer": (hostile.tokenizer_setting, ("lowercase", "yes"), "'lowercase' must be true or false"),
    "0551-pkl-bytes-deleted": (hostile.delete_pickle_byte, (), "data.pkl"),
    "0669-pkl-bytes-length": (hostile.huge_string_length, (), "declares 2147483632 bytes"),
    "0501-zip-bomb": (hostile.zip_bomb, (), "zip bomb"),
}


@pytest.mark.parametrize("name", sorted(REFUSED_AT_LOAD))
def test_hostile_file_is_refused_quickly_with_its_name(name, original, tmp_path, cli):
    maker, args, reason = REFUSED_AT_LOAD[name]
    path = maker(original, tmp_path / f"{name}.pt", *args)
    for command, stdin in (("inspect", ""), ("translate", SENTENCE)):
        code, out, err, seconds, peak = run_measured(cli, command, "--model", path, stdin=stdin)
        assert code == 2, f"{command} {name}: exit {code}\n{err}"
        assert str(path) in err, err
        assert reason in err, err
        assert "unexpected error" not in err and "Traceback" not in err, err
        assert out == "", out
        assert seconds < LIMIT_SECONDS, f"{command} {name} took {seconds:.1f} s"
        assert peak < LIMIT_MEMORY_KB, f"{command} {name} peaked at {peak // 1024} MiB"


@pytest.mark.parametrize("maker,reason", [
    (hostile.step_fails_on_long_sources, "failed in its step code at step 1: "),
    (hostile.step_state_shape_on_long_sources, "broke its contract at step 1: state is"),
])
def test_model_failing_on_one_sentence_names_the_line_and_goes_on(maker, reason, original, tmp_path, cli):
    path = maker(original, tmp_path / "m.pt")
    code, out, err, _, _ = run_measured(cli, "translate", "--model", path, stdin="1998\n" + SENTENCE + "march 5\n")
    assert code == 1, err
    assert err.startswith(f"line 2: the model '{path}' "), err
    assert reason in err, err
    lines = out.split("\n")
    assert len(lines) == 4 and lines[0] and lines[1] == "" and lines[2], out  # lines 1 and 3 translated


def test_step_logits_are_held_to_step(original, tmp_path, cli):
    """The optional step_logits (batched greedy decoding's scores before log_softmax) must agree
    with step at load, and a NaN from it later ends that sentence only, as step's would."""
    current = tmp_path / "current.pt"
    subprocess.run([str(cli), "update-code", str(original), "-o", str(current)], check=True, capture_output=True)
    path = hostile.step_logits_doubled(current, tmp_path / "doubled.pt")
    code, out, err, _, _ = run_measured(cli, "translate", "--model", path, stdin=SENTENCE)
    assert code == 2 and str(path) in err and "step_logits must return step's state, and logits whose log_softmax" in err, err
    path = hostile.step_logits_nan_on_long_sources(current, tmp_path / "nan.pt")
    code, out, err, _, _ = run_measured(cli, "translate", "--model", path, stdin="1998\n" + SENTENCE + "march 5\n")
    assert code == 1, err
    assert err.startswith(f"line 2: the model '{path}' produced NaN at step 1 (in its logits)"), err
    lines = out.split("\n")
    assert len(lines) == 4 and lines[0] and lines[1] == "" and lines[2], out


def test_sentence_past_the_time_limit_stops_the_run_naming_line_and_step(original, tmp_path, cli):
    path = hostile.step_loops_forever(original, tmp_path / "loops.pt", only_long_sources=True)
    output = tmp_path / "out.txt"
    output.write_text("old\n")
    code, out, err, seconds, _ = run_measured(cli, "translate", "--model", path, "--time-limit", "2", "--batch", "1",
                                              "-o", output, stdin="1998\n" + SENTENCE)
    assert code == 2, err
    assert f"line 2: the model '{path}' did not finish step 1 within 2 s (--time-limit)" in err, err
    assert output.read_text() == "old\n"  # left as it was
    assert seconds < LIMIT_SECONDS
    # stdout keeps the lines before
    code, out, err, _, _ = run_measured(cli, "translate", "--model", path, "--time-limit", "2", "--batch", "1",
                                        stdin="1998\n" + SENTENCE)
    assert code == 2 and out.count("\n") == 1 and out.strip(), (out, err)
    # batched, the message names the batch's lines
    code, out, err, _, _ = run_measured(cli, "translate", "--model", path, "--time-limit", "2", stdin="1998\n" + SENTENCE)
    assert code == 2 and f"lines 1-2 (decoded together): the model '{path}' did not finish" in err, err


def test_lines_with_nothing_visible_are_blank(cli, repo_root):
    lines = ["\u00a0\u3000", "\u200b", "\x01\x02\x03", "\u200f", "\u2060\ufeff\u00ad", " \t"]
    model = repo_root / "models" / "lesson-dates.pt"
    code, out, err, _, _ = run_measured(cli, "translate", "--model", model, stdin="\n".join(lines) + "\n5 march 1998\n")
    assert code == 0, err
    assert out.split("\n")[:len(lines)] == [""] * len(lines), out
    assert out.split("\n")[len(lines)], out  # the real line is translated


def test_align_refuses_an_invisible_side_with_its_line(cli, repo_root):
    model = repo_root / "models" / "lesson-dates.pt"
    stdin = "\u200b ||| 1998 - 03 - 05\n5 march 1998 ||| \u3000\n5 march 1998 ||| 1998 - 03 - 05\n"
    code, out, err, _, _ = run_measured(cli, "align", "--format", "json", "--model", model, stdin=stdin)
    assert code == 1
    assert "line 1: the source side is empty" in err and "line 2: the target side is empty" in err, err
    rows = out.split("\n")
    assert rows[0] == "null" and rows[1] == "null" and json.loads(rows[2])["alpha"], out


def test_repro_inputs_from_the_campaign(cli, repo_root):
    """The two input files of ../shared/fuzz/repro/, copied into tests/data/fuzz."""
    folder = repo_root / "tests" / "data" / "fuzz"
    text = (folder / "invisible-only-lines.txt").read_text()
    code, out, err, _, _ = run_measured(cli, "translate", stdin=text)
    assert code == 0 and out.strip() == "", (out, err)
    code, out, err, _, _ = run_measured(cli, "align", "--format", "json", stdin=(folder / "invisible-source-align.txt").read_text())
    assert code == 1 and "line 1: the source side is empty" in err, err
