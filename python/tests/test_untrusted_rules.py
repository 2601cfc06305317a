"""The second fuzz campaign (../shared/fuzz/repro/README.md, "Campaign 2"): tokenizer rules and
metadata from a model file. Every kind of file it found is refused at load (exit 2, the file and the
reason named) or its line is refused or translated, within 10 s and 500 MB, with no signal, no
exit 3 and no exit-0 answer from non-finite weights. The files are made here from the bundled
models (hostile_models.py); where ../shared/fuzz/repro is present, its exact files run too."""

import json
from pathlib import Path

import pytest

import hostile_models as hostile
from test_hostile_models import LIMIT_MEMORY_KB, LIMIT_SECONDS, SENTENCE, run_measured

SHARED_REPRO = Path(__file__).resolve().parents[3] / "shared" / "fuzz" / "repro"

DOLLAR_AMP_1000 = "$&" * 1000
TIMES_TEN = "$1" * 10
LONG_LINE = "a" * 9990 + "!\n"

# name: (maker, its arguments, command and its options, stdin, expected exit, words the message has)
CASES = {
    "regex-stack-overflow": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": "(" * 20 + "a" + ")" * 20 + "*", "content": "b"}],),
                             ("translate",), "a" * 2000 + "\n", 0, []),
    "regex-backtracking": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": "(a+)+$", "content": "x"}],),
                           ("translate",), LONG_LINE, 0, []),
    "regex-backreference": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": "(a)\\1", "content": "x"}],),
                            ("translate",), SENTENCE, 2, ["pattern '(a)\\1'", "backreferences"]),
    "regex-chained-expansion": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": "(.)", "content": TIMES_TEN}] * 10,),
                                ("translate",), SENTENCE, 1, ["line 1: the source tokenizer of", "expands this line"]),
    "regex-prefix-suffix": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": "a", "content": "$99$0$&$`$'"}],),
                            ("translate",), "a" * 4000 + "\n", 2, ["refers to group 9"]),
    "regex-expand-x10": (hostile.tokenizer_normalizers, ([{"type": "replace", "pattern": ".", "content": DOLLAR_AMP_1000}],),
                         ("translate",), "a" * 4000 + "\n", 1, ["the source tokenizer of", "beyond 32000 characters"]),
    "metadata-nested-100000": (hostile.nested_metadata, (), ("inspect",), "", 2, ["'metadata' nests objects or lists deeper than 64"]),
    "no-eos-max-length-100000": (hostile.metadata_changed, (), ("translate",), SENTENCE, 2,
                                 ["'max_length' must be an integer from 2 to 1000"]),
    "max-source-length-1": (hostile.metadata_changed, (), ("translate",), SENTENCE, 2,
                            ["'max_source_length' must be an integer from 2 to 1000"]),
    "init_b-minus-inf": (hostile.weight_filled, ("init_b", float("-inf")), ("translate",), SENTENCE, 2, ["non-finite weights: init_b"]),
    "init_b-plus-inf": (hostile.weight_filled, ("init_b", float("inf")), ("align",), SENTENCE, 2, ["non-finite weights: init_b"]),
    "tokenizer-without-kind": (hostile.string_attribute, ("src_tokenizer", '{"lowercase": true}'), ("translate",), SENTENCE, 2,
                               ["'src_tokenizer' has no \"kind\""]),
    "tgt-specials-empty": (hostile.string_attribute, ("tgt_specials", ""), ("translate",), SENTENCE, 2, ["'tgt_specials' is empty"]),
}
METADATA = {"no-eos-max-length-100000": {"max_length": 100000}, "max-source-length-1": {"max_source_length": 1}}


def check_outcome(command, code, out, err, seconds, peak, expected_code, words, path):
    assert code == expected_code, f"{command}: exit {code}\n{err[-2000:]}"
    if expected_code == 2:
        assert str(path) in err, err
    for w in words:
        assert w in err, err
    assert "unexpected error" not in err and "Traceback" not in err, err
    assert seconds < LIMIT_SECONDS, f"{command} took {seconds:.1f} s"
    assert peak < LIMIT_MEMORY_KB, f"{command} peaked at {peak // 1024} MiB"


@pytest.fixture(scope="module")
def original(repo_root) -> Path:
    return repo_root / "models" / "lesson-dates.pt"


@pytest.mark.parametrize("name", sorted(CASES))
def test_rules_and_metadata_of_a_file_are_refused_or_bounded(name, original, tmp_path, cli):
    maker, args, command, stdin, expected, words = CASES[name]
    path = tmp_path / f"{name}.pt"
    if maker is hostile.metadata_changed:
        maker(original, path, **METADATA[name])
    else:
        maker(original, path, *args)
    code, out, err, seconds, peak = run_measured(cli, *command, "--model", path, stdin=stdin)
    check_outcome(command, code, out, err, seconds, peak, expected, words, path)


def test_subword_replacement_of_2_mib_is_stopped_naming_the_file(repo_root, tmp_path, cli):
    path = hostile.tokenizer_normalizers(repo_root / "models" / "en-fr-subword.pt", tmp_path / "spm-replace-2MB-content.pt",
                                         [{"type": "replace", "pattern": "a", "content": "y" * (2 << 20)}])
    code, out, err, seconds, peak = run_measured(cli, "translate", "--model", path, stdin=SENTENCE)
    check_outcome("translate", code, out, err, seconds, peak, 1, [f"the source tokenizer of '{path}'", "expands this line"], path)


def test_nfkc_expansion_is_refused_before_it_fills_memory(cli):
    # 13,000 characters of 3 bytes are read whole (under LineStreams' 40,001 bytes) and refused as a line.
    code, out, err, seconds, peak = run_measured(cli, "translate", stdin="\ufdfa" * 13000 + "\n" + "\ufdfa" * 100 + "\n")
    check_outcome("translate", code, out, err, seconds, peak, 1, ["line 1: the line has 13000 characters", "line 2: the source tokenizer"], "")
    # 50,000 of them (150 kB) are not read past 40,001 bytes: the run stops there, naming the line.
    code, out, err, seconds, peak = run_measured(cli, "translate", stdin="\ufdfa" * 50000 + "\n" + "\ufdfa" * 100 + "\n")
    check_outcome("translate", code, out, err, seconds, peak, 2, ["line 1: the line has more than 10000 characters"], "")


def test_model_without_target_eos_decodes_to_its_cap_and_says_so_once(original, tmp_path, cli):
    path = hostile.without_target_eos(hostile.metadata_changed(original, tmp_path / "capped.pt", max_length=40), tmp_path / "no-eos.pt")
    code, out, err, seconds, peak = run_measured(cli, "translate", "--model", path, stdin=SENTENCE * 3)
    check_outcome("translate", code, out, err, seconds, peak, 0, [], path)
    assert err.count("has no end-of-sentence token") == 1 and "its cap of 40 tokens" in err, err
    assert len(out.splitlines()) == 3, out


# The campaign's own files, where the shared folder is beside the checkout (CI has a read-only copy).
SHARED_CASES = [
    ("regex-stack-overflow.pt", ("translate",), "a2000.txt", 0, []),
    ("regex-backtracking.pt", ("translate",), "long-line.txt", 0, []),
    ("regex-chained-expansion.pt", ("translate",), None, 1, ["expands this line"]),
    ("regex-prefix-suffix.pt", ("translate",), "a4000.txt", 2, ["refers to group 9"]),
    ("regex-expand-x10.pt", ("translate",), "a4000.txt", 1, ["expands this line"]),
    ("spm-replace-2MB-content.pt", ("translate",), None, 1, ["expands this line"]),
    ("metadata-nested-100000.pt", ("inspect",), None, 2, ["deeper than 64"]),
    ("metadata-nested-100000.pt", ("translate",), None, 2, ["deeper than 64"]),
    ("no-eos-max-length-100000.pt", ("translate",), None, 2, ["'max_length' must be an integer from 2 to 1000"]),
    ("init_b-minus-inf.pt", ("translate",), None, 2, ["non-finite weights: init_b"]),
    ("init_b-plus-inf.pt", ("align",), None, 2, ["non-finite weights: init_b"]),
]


@pytest.mark.skipif(not SHARED_REPRO.is_dir(), reason="../shared/fuzz/repro is not beside the checkout")
@pytest.mark.parametrize("file,command,input_name,expected,words", SHARED_CASES)
def test_the_campaigns_own_files(file, command, input_name, expected, words, cli):
    stdin = (SHARED_REPRO / input_name).read_text() if input_name else SENTENCE
    path = SHARED_REPRO / file
    code, out, err, seconds, peak = run_measured(cli, *command, "--model", path, stdin=stdin)
    check_outcome(command, code, out, err, seconds, peak, expected, words, path)


def test_export_and_evaluate_stop_at_the_time_limit_naming_the_step(original, tmp_path, cli):
    path = hostile.step_loops_forever(original, tmp_path / "loops.pt", only_long_sources=True)
    # one worker: with several, the step named is the last any of them reported
    code, out, err, seconds, _ = run_measured(cli, "export", "--format", "png", "--no-progress", "-o", tmp_path / "figures",
                                              "--workers", "1", "--model", path, "--time-limit", "2", stdin="1998\n" + SENTENCE)
    assert code == 2 and f"line 2: the model '{path}' did not finish step 1 within 2 s (--time-limit)" in err, err
    assert seconds < LIMIT_SECONDS
    test = tmp_path / "test.tsv"
    test.write_text("1998\t1998\n" + SENTENCE.strip() + "\t1998-03-05\n")
    code, out, err, seconds, _ = run_measured(cli, "evaluate", "--model", path, "--test", test, "--time-limit", "2", "--no-progress")
    assert code == 2 and f"the model '{path}' did not finish step 1 within 2 s (--time-limit)" in err, err
    assert seconds < LIMIT_SECONDS


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("command", [("translate", "--batch", "1"), ("export", "--format", "png", "--no-progress", "-o", "figures")])
def test_a_signal_ends_the_command_within_two_seconds_while_a_worker_is_stuck(signal_name, command, original, tmp_path, cli):
    import signal
    import subprocess
    import time
    path = hostile.step_loops_forever(original, tmp_path / "loops.pt", only_long_sources=True)
    process = subprocess.Popen([str(cli), *command, "--model", str(path), "--time-limit", "0"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write("1998\n" + SENTENCE)
    process.stdin.close()
    time.sleep(5)  # the model is loaded and line 2 is stuck in its step
    sent = time.monotonic()
    process.send_signal(getattr(signal, signal_name))
    try:
        code = process.wait(timeout=10)
    finally:
        process.kill()
    waited = time.monotonic() - sent
    err = process.stderr.read()
    assert code == 130, err
    assert waited < 2.5, f"ended {waited:.1f} s after {signal_name}"
    assert "a sentence still running was not waited for" in err, err
    if command[0] == "translate":
        assert process.stdout.read().count("\n") == 1  # line 1, complete
