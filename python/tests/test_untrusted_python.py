"""The Python side is as strict as the C++ loader (issue 59, fuzz campaign 4's py-* cases): damaged
model files and checkpoints are refused by name within 10 s and 500 MB (never a SIGSEGV, a hang or
code run from a pickle), bad metadata gives one error naming the file and the key, pages never hold
NaN, every file the package writes follows files.py's one rule, and the command line reads user
files bounded and answers in one line. Inputs are made here from models/lesson-dates.pt."""

import json
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

import alignscope
import hostile_models as hostile
from alignscope import files
from alignscope.checkpoint import read_checkpoint, save_checkpoint
from alignscope.model_archive import CHECKS
from alignscope.page import script_safe

ROOT = Path(__file__).resolve().parents[2]
ORIGINAL = ROOT / "models" / "lesson-dates.pt"
SENTENCE = "the fifth of march , 1998"
LIMIT_SECONDS = 10
LIMIT_MEMORY_KB = 500 * 1024
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")]))


def run_measured(code: str, *args: str, env=None, timeout: float = 120):
    """(exit status, stderr, seconds, peak resident KiB of the process and its checking child) of
    `python3 -c code args`, run from a fresh parent so RUSAGE_CHILDREN holds this run only."""
    probe = ("import resource, subprocess, sys, json\n"
             "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "print(json.dumps([r.returncode, r.stderr, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", probe, sys.executable, "-c", code, *args], capture_output=True,
                          text=True, timeout=timeout, env=env or ENV)
    status, err, peak = json.loads(done.stdout)
    return status, err, time.monotonic() - start, peak


SHOW = ("import sys, alignscope\n"
        "try:\n"
        "    alignscope.show(sys.argv[1], sys.argv[2])\n"
        "except (ValueError, TypeError, FileNotFoundError) as e:\n"
        "    print(f'{type(e).__name__}: {e}', file=sys.stderr); sys.exit(2)\n")

# maker, its arguments, what the message says (the C++ loader's words where it has them)
DAMAGED = {
    "zero_storage": (hostile.zero_storage, ("dec_wih",), "declares 0 elements"),
    "deep_code": (hostile.deep_code, (), "nests brackets more than 200 deep"),
    "reduce_on_empty_stack": (hostile.reduce_on_empty_stack, (), "empty stack"),
    "step_loops_forever": (hostile.step_loops_forever, (), "did not load within 3 s"),
    "encode_loops_forever": (hostile.encode_loops_forever, (), "did not load within 3 s"),
    "zip_bomb": (hostile.zip_bomb, (), "zip bomb"),
    "huge_string_length": (hostile.huge_string_length, (), "declares 2147483632 bytes"),
    "delete_pickle_byte": (hostile.delete_pickle_byte, (), "data.pkl"),
    "swap_record_lengths": (hostile.swap_record_lengths, (), "its record holds"),
    "flip_bytes": (hostile.flip_bytes, (), "checksum"),
    "max_length_huge": (hostile.metadata_changed, (), "metadata 'max_length' must be an integer from 2 to 1000"),
    "nan_weight": (hostile.nan_weight, (), "non-finite weights: dec_wih"),
    "init_b_minus_inf": (hostile.weight_filled, ("init_b", float("-inf")), "non-finite weights: init_b"),
    "nan_log_probs": (hostile.nan_log_probs, (), "non-finite log_probs"),
}


@pytest.fixture(scope="module")
def time_allowed() -> float:
    """10 s, or more on a machine so busy that show() on the sound model takes more than 3 s: the time a
    sound file takes (two interpreters importing PyTorch), plus the 3 s load limit the tests set and 4 s."""
    status, err, seconds, _ = run_measured(SHOW, str(ORIGINAL), SENTENCE)
    assert status == 0, err
    return max(LIMIT_SECONDS, seconds + 3 + 4)


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_show_refuses_damaged_files_by_name_quickly(name, tmp_path, time_allowed):
    maker, args, reason = DAMAGED[name]
    path = tmp_path / f"{name}.pt"
    if name == "max_length_huge":
        maker(ORIGINAL, path, max_length=10 ** 12)
    else:
        maker(ORIGINAL, path, *args)
    # The loader's own limit (6 s and more for a large file) is the C++ loader's; 3 s keeps the test short.
    status, err, seconds, peak = run_measured(SHOW, str(path), SENTENCE,
                                              env=dict(ENV, ALIGNSCOPE_LOAD_TIME_LIMIT="3"))
    assert status == 2, f"{name}: exit {status}\n{err}"  # not -11 (SIGSEGV), not killed
    assert str(path) in err and reason in err, err
    assert "Traceback" not in err, err
    assert seconds < time_allowed, f"{name} took {seconds:.1f} s"
    assert peak < LIMIT_MEMORY_KB, f"{name} peaked at {peak // 1024} MiB"


def test_a_step_that_loops_on_one_sentence_is_set_aside_by_name(tmp_path, time_allowed):
    """A model whose step loops only on sources longer than the probe's passes the load; show() then
    refuses it after time_limit seconds without an answer, naming the file and the step, and returns."""
    path = hostile.step_loops_forever(ORIGINAL, tmp_path / "loops.pt", only_long_sources=True)
    code = SHOW.replace("alignscope.show(sys.argv[1], sys.argv[2])", "alignscope.show(sys.argv[1], sys.argv[2], time_limit=2)")
    status, err, seconds, peak = run_measured(code, str(path), SENTENCE)
    assert status == 2 and f"the model file '{path}' did not finish step 1 within 2 s: its code may loop for ever" in err, err
    assert seconds < time_allowed and peak < LIMIT_MEMORY_KB, (seconds, peak)


def test_the_checks_are_the_cpp_loaders():
    """model_checks.json is the one list of limits: the C++ build generates ModelCheckLimits.h from it
    (cmake/ModelChecks.cmake) and every loader constant is taken from there, or, in the two headers
    most of the project includes, held to it by a static_assert. tests/ModelChecksTest.cpp holds that
    the C++ loader refuses what the JSON says."""
    def constant(header: str, name: str) -> str:
        text = (ROOT / header).read_text(encoding="utf-8")
        m = re.search(rf"{re.escape(name)}\s*=\s*([^;]+);", text)
        assert m, f"{name} in {header}"
        return m.group(1).strip()

    generated = {
        ("core/model/ModelArchive.cpp", "ModelArchive::kMaxInflatedBytes"): "kMaxInflatedBytes",
        ("core/model/ModelArchive.cpp", "ModelArchive::kMaxRatio"): "kMaxRatio",
        ("core/model/ModelArchive.cpp", "ModelArchive::kMaxEntries"): "kMaxEntries",
        ("core/model/ModelArchive.cpp", "ModelArchive::kMaxCodeNesting"): "kMaxCodeNesting",
        ("core/model/PickleScanner.cpp", "PickleScanner::kMaxNesting"): "kMaxPickleNesting",
        ("core/model/AttributeJson.cpp", "AttributeJson::kMaxDepth"): "kMaxJsonDepth",
        ("core/model/AttributeJson.cpp", "AttributeJson::kMaxBytes"): "kMaxJsonBytes",
        ("core/model/AttributeJson.cpp", "AttributeJson::kMaxTokenizerBytes"): "kMaxTokenizerBytes",
        ("core/model/TorchModelChecks.h", "kMinDeclaredLength"): "kMinDeclaredLength",
        ("core/model/TorchModelChecks.h", "kMaxDeclaredLength"): "kMaxDeclaredLength",
        ("core/text/NormalizedText.cpp", "TextBudget::kMaxGrowth"): "kMaxGrowth",
        ("core/text/NormalizedText.cpp", "TextBudget::kMaxNormalizedCharacters"): "kMaxNormalizedCharacters",
    }
    for (source_file, name), source in generated.items():
        assert constant(source_file, name) == f"model_checks::{source}", (source_file, name)
    assert int(constant("core/model/Model.h", "kMaxSourceTokens")) == CHECKS["model"]["max_source_tokens"]
    assert "Model::kMaxSourceTokens == model_checks::kMaxSourceTokens" in (ROOT / "core/model/Model.cpp").read_text()
    assert int(constant("core/text/Tokenizer.h", "kMaxLineCharacters")) == CHECKS["text"]["max_line_characters"]
    assert "Tokenizer::kMaxLineCharacters == model_checks::kMaxLineCharacters" in (ROOT / "core/text/Tokenizer.cpp").read_text()
    scanner = (ROOT / "core/model/PickleScanner.cpp").read_text(encoding="utf-8")
    assert "model_checks::kStorageElementBytes" in scanner and "model_checks::kMaxMemoEntries" in scanner
    assert "model_checks::kTensorRebuilders" in scanner and "Storage\", " not in scanner
    loading = (ROOT / "core/model/TorchModelLoading.cpp").read_text(encoding="utf-8")
    for name in ("kLoadBaseSeconds", "kLoadSecondsPerMebibyte", "kLoadExtraMemoryBytes", "kLoadMemoryPerFileByte",
                 "kLoadTimeLimitVariable"):
        assert f"model_checks::{name}" in loading, name
    assert "ModelCheckLimits.h" in (ROOT / "core/CMakeLists.txt").read_text()


# --------------------------------------------------------------------------------------------------
# Checkpoints never run code


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_checkpoint_that_would_run_code_is_refused_by_name(tmp_path):
    marker, evil = tmp_path / "ran", tmp_path / "evil.pt"
    torch.save({"architecture": {}, "state_dict": {}, "x": _Payload(marker)}, evil)
    with pytest.raises(ValueError, match=rf"the checkpoint '{re.escape(str(evil))}' is not read: it names "
                                         r"(posix|os)\.system"):
        read_checkpoint(str(evil))
    assert not marker.exists()
    status, err, _, _ = run_measured("import sys; from alignscope.__main__ import main; sys.exit(main(sys.argv[1:]))",
                                     "export", "--checkpoint", str(evil), "--out", str(tmp_path / "o.pt"))
    assert status == 1 and len(err.strip().splitlines()) == 1 and str(evil) in err, err
    assert not marker.exists() and not (tmp_path / "o.pt").exists()


def test_a_checkpoint_with_numbers_and_generators_still_reads(tmp_path):
    from alignscope.architecture import Architecture
    from alignscope.reference import Seq2SeqAttention
    arch = Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=8, attention_size=8, readout_size=8)
    model = Seq2SeqAttention(6, 7, arch)
    path = tmp_path / "ck.pt"
    save_checkpoint(str(path), model, list("abcdef"), list("abcdefg"))
    value = torch.load(path)
    value.update({"lr": 0.5, "rng": {"cpu": torch.get_rng_state()}, "step": 3})
    torch.save(value, path)
    back = read_checkpoint(str(path))
    assert back["lr"] == 0.5 and back["step"] == 3 and torch.equal(back["rng"]["cpu"], torch.get_rng_state())


def test_a_checkpoint_with_a_damaged_storage_is_refused_before_torch_reads_it(tmp_path):
    from alignscope.architecture import Architecture
    from alignscope.reference import Seq2SeqAttention
    arch = Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=8, attention_size=8, readout_size=8)
    path = tmp_path / "ck.pt"
    save_checkpoint(str(path), Seq2SeqAttention(6, 7, arch), list("abcdef"), list("abcdefg"))
    entries = hostile.read_entries(path)  # one weight's record cut to half (torch.load: reads past it)
    i = next(k for k, (name, _) in enumerate(entries) if name.endswith("data/0"))
    entries[i] = (entries[i][0], entries[i][1][:len(entries[i][1]) // 2])
    hostile.write_entries(path, entries)
    with pytest.raises(ValueError, match=rf"'{re.escape(str(path))}' is damaged or not a model file: .*storage '0' "
                                         r"declares \d+ elements of 4 bytes, and its record holds"):
        read_checkpoint(str(path))


# --------------------------------------------------------------------------------------------------
# Bad metadata and attributes: one error naming the file and the key


def _invalid_utf8_vocabulary(src: Path, dst: Path) -> Path:
    entries = hostile.read_entries(src)
    i = next(k for k, (name, _) in enumerate(entries) if name.endswith("data.pkl"))
    pickle = entries[i][1]
    at = pickle.index(b"march")
    entries[i] = (entries[i][0], pickle[:at] + b"ma\xffch" + pickle[at + 5:])
    return hostile.write_entries(dst, entries)


ATTRIBUTES = {
    "attends_padding": (lambda s, d: hostile.metadata_changed(s, d, attends_padding=True),
                        "step returned no 'alpha_padding'"),
    "not_json": (lambda s, d: hostile.string_attribute(s, d, "metadata", "{not json"),
                 "attribute 'metadata' is not valid JSON (line 1, column 2"),
    "list": (lambda s, d: hostile.string_attribute(s, d, "metadata", "[1, 2]"),
             "attribute 'metadata' must be a JSON object"),
    "nested": (lambda s, d: hostile.nested_metadata(s, d), "attribute 'metadata' nests objects or lists deeper than 64"),
    "bad_pattern": (lambda s, d: hostile.tokenizer_normalizers(s, d, [{"type": "replace", "pattern": "(", "content": ""}]),
                    "attribute 'src_tokenizer': normaliser pattern '(' is not a valid pattern"),
    "group_past_the_pattern": (lambda s, d: hostile.tokenizer_normalizers(
        s, d, [{"type": "replace", "pattern": "a", "content": "$99$0$&"}]),
        "attribute 'src_tokenizer': normaliser content '$99$0$&' refers to group 9 but pattern 'a' has 0 groups"),
    "text_around_the_match": (lambda s, d: hostile.tokenizer_normalizers(
        s, d, [{"type": "replace", "pattern": "(a)", "content": "$`"}]), "uses $` (the text before or after the match)"),
    "kind": (lambda s, d: hostile.tokenizer_setting(s, d, "kind", 7), "unsupported tokenizer kind 7"),
    "source_eos": (lambda s, d: hostile.metadata_changed(s, d, source_eos="yes"), "metadata 'source_eos' must be true or false"),
    "attention_when": (lambda s, d: hostile.metadata_changed(s, d, attention={"when": "later"}),
                       "metadata 'attention.when' must be \"before_cell\" or \"after_cell\""),
    "specials": (lambda s, d: hostile.string_attribute(s, d, "tgt_specials", '{"eos": 100000}'),
                 "attribute 'tgt_specials': 'eos' must be an id of the vocabulary"),
    "invalid_utf8_vocabulary": (_invalid_utf8_vocabulary, "is not valid UTF-8"),
}


@pytest.mark.parametrize("name", sorted(ATTRIBUTES))
def test_bad_attributes_give_one_error_naming_file_and_key(name, tmp_path):
    make, reason = ATTRIBUTES[name]
    path = make(ORIGINAL, tmp_path / f"{name}.pt")
    with pytest.raises(ValueError) as e:
        alignscope.show(str(path), SENTENCE)
    assert str(path) in str(e.value) and reason in str(e.value), str(e.value)


@pytest.mark.parametrize("normalizers,line", [
    ([{"type": "replace", "pattern": "(.)", "content": "$1" * 10}] * 10, SENTENCE),  # regex-chained-expansion
    ([{"type": "replace", "pattern": "a", "content": "y" * (2 << 20)}], SENTENCE),  # spm-replace-2MB-content
    ([{"type": "replace", "pattern": ".", "content": "$&" * 1000}], "a" * 4000),  # regex-expand-x10
])
def test_normalisers_that_expand_a_line_are_refused_within_its_budget(normalizers, line, tmp_path, time_allowed):
    path = hostile.tokenizer_normalizers(ORIGINAL, tmp_path / "expands.pt", normalizers)
    status, err, seconds, peak = run_measured(SHOW, str(path), line)
    assert status == 2 and f"the model file '{path}': its tokenizer expands this line of {len(line)} characters" in err, err
    assert seconds < time_allowed and peak < LIMIT_MEMORY_KB, (seconds, peak)


def test_a_backtracking_pattern_is_stopped_by_name(tmp_path, time_allowed):
    """regex-backtracking: RE2 (the C++ side's) is linear; Python's re takes exponential time on (a+)+$."""
    path = hostile.tokenizer_normalizers(ORIGINAL, tmp_path / "backtracks.pt",
                                         [{"type": "replace", "pattern": "(a+)+$", "content": "x"}])
    status, err, seconds, peak = run_measured(SHOW, str(path), "a" * 40 + "b")
    assert status == 2 and f"the model file '{path}': its tokenizer's normaliser pattern '(a+)+$' did not finish " \
                           "within 3 s" in err, err
    assert seconds < time_allowed and peak < LIMIT_MEMORY_KB, (seconds, peak)


def test_a_line_past_the_tokenizers_limit_is_refused():
    with pytest.raises(ValueError, match="the line has 10001 characters; at most 10000 are read"):
        alignscope.show(str(ORIGINAL), "a" * 10001)


def test_what_is_not_a_model_or_not_text_is_named():
    with pytest.raises(ValueError, match="the TorchScript module does not meet the AlignScope model contract.*"
                                         "missing method 'encode'"):
        alignscope.show(torch.jit.script(torch.nn.Linear(2, 2)), "a")
    with pytest.raises(ValueError, match=r"the source sentence is not valid text: character 5 is a lone surrogate \(U\+D800\)"):
        alignscope.show(str(ORIGINAL), "the \ud800 fifth")
    with pytest.raises(ValueError, match="the target sentence is not valid text"):
        alignscope.show(str(ORIGINAL), "the fifth", target="1998-\udcff")


def test_reference_and_import_name_an_architecture_that_is_not_an_object(tmp_path):
    path = hostile.metadata_changed(ORIGINAL, tmp_path / "arch.pt", architecture="gru")
    for command in ("reference", "import"):
        status, err, _, _ = run_measured("import sys; from alignscope.__main__ import main; sys.exit(main(sys.argv[1:]))",
                                         command, "--model", str(path), "--out", str(tmp_path / "out"))
        assert status == 1 and err.count("\n") == 1 and "Traceback" not in err, err
        assert str(path) in err and "'architecture' must be an object, not str" in err, err


# --------------------------------------------------------------------------------------------------
# Pages never hold NaN


def test_script_safe_writes_null_for_non_finite_numbers_as_the_cpp_page_does():
    text = script_safe({"log_prob": float("-inf"), "rows": [[float("nan"), 0.5]], "score": float("inf"), "ok": 1.5})
    assert json.loads(text) == {"log_prob": None, "rows": [[None, 0.5]], "score": None, "ok": 1.5}
    assert "NaN" not in text and "Infinity" not in text


def test_a_page_of_a_sound_model_is_strict_json():
    page = alignscope.show(str(ORIGINAL), SENTENCE)
    assert script_safe(page.data) in page.html()
    json.loads(script_safe(page.data), parse_constant=lambda c: pytest.fail(f"{c} in the page's JSON"))


# --------------------------------------------------------------------------------------------------
# One rule for every file written


def test_writes_never_go_through_a_link_and_never_leave_the_folder(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "page.html").symlink_to(outside)
    (folder / "dangling.html").symlink_to(tmp_path / "created-elsewhere.html")
    for name in ("page.html", "dangling.html"):
        with pytest.raises(ValueError, match=rf"cannot write the output file '.*{name}': it is a symbolic link"):
            files.write_text(folder / name, "hostile")
    assert outside.read_text() == "precious" and not (tmp_path / "created-elsewhere.html").exists()
    assert sorted(os.listdir(folder)) == ["dangling.html", "page.html"]  # no temporary file left


def test_pipes_devices_and_folders_are_refused_by_name_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target, kind in ((fifo, "a pipe"), (Path("/dev/null"), "a device"), (tmp_path, "a folder")):
        start = time.monotonic()
        with pytest.raises(ValueError, match=rf"'{re.escape(str(target))}': it is {kind}, not a regular file"):
            with files.atomic_write(target) as f:
                f.write(b"model")
        assert time.monotonic() - start < 5
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pipe"]


def test_a_regular_file_is_replaced_whole_keeping_its_mode(tmp_path):
    path = tmp_path / "model.json"
    path.write_text("old")
    os.chmod(path, 0o640)
    with pytest.raises(RuntimeError):
        with files.atomic_write(path, encoding="utf-8") as f:
            f.write("half")
            raise RuntimeError("killed mid-write")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["model.json"]
    files.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_save_takes_a_path_only(tmp_path):
    page = alignscope.show(str(ORIGINAL), SENTENCE)
    for wrong in (5, True, None, b"page.html"):
        with pytest.raises(TypeError, match="the page's path must be a path"):
            page.save(wrong)
    assert page.save(tmp_path / "page.html") == str(tmp_path / "page.html")
    assert (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _checkpoint_and_pipe(tmp_path):
    """The command line, a checkpoint imported from the model, and a FIFO beside it."""
    checkpoint = tmp_path / "ck.pt"
    cli = [sys.executable, "-m", "alignscope"]
    subprocess.run(cli + ["import", "--model", str(ORIGINAL), "--out", str(checkpoint)], check=True, env=ENV,
                   capture_output=True, timeout=120)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    return cli, checkpoint, fifo


def test_command_line_outputs_follow_the_rule(tmp_path):
    cli, checkpoint, fifo = _checkpoint_and_pipe(tmp_path)
    r = subprocess.run(cli + ["export", "--checkpoint", str(checkpoint), "--out", str(fifo), "--no-check"], env=ENV,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.strip() == \
        f"python3 -m alignscope: error: cannot write the output file '{fifo}': it is a pipe, not a regular file"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    demo = tmp_path / "demo"
    demo.mkdir()
    (demo / "model.pt").symlink_to(tmp_path / "elsewhere.pt")
    r = subprocess.run(cli + ["demo", "--out", str(demo)], env=ENV, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "it is a symbolic link" in r.stderr and not (tmp_path / "elsewhere.pt").exists()


# --------------------------------------------------------------------------------------------------
# The command line: bounded reads, one line


def test_devices_and_pipes_as_inputs_fail_fast_in_one_line(tmp_path):
    cli, checkpoint, fifo = _checkpoint_and_pipe(tmp_path)
    cases = [
        (["export", "--checkpoint", str(checkpoint), "--out", str(tmp_path / "o.pt"), "--src-vocab", "/dev/zero"],
         "the source vocabulary '/dev/zero' is a device, not a regular file"),
        (["train", "--data", "/dev/zero", "--steps", "1", "--out", str(tmp_path / "t.pt")],
         "the corpus '/dev/zero' is a device, not a regular file"),
        (["export", "--checkpoint", str(fifo), "--out", str(tmp_path / "o.pt")],
         f"the checkpoint '{fifo}' is a pipe, not a regular file"),
        (["import", "--model", str(fifo), "--out", str(tmp_path / "o.pt")],
         f"the model file '{fifo}' is a pipe, not a regular file"),
    ]
    for args, message in cases:
        start = time.monotonic()
        r = subprocess.run(cli + args, env=ENV, capture_output=True, text=True, timeout=60)
        assert r.returncode in (1, 2) and message in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert time.monotonic() - start < LIMIT_SECONDS, args


def test_guide_refuses_a_corpus_without_pairs(tmp_path):
    from alignscope.guidance_corpus import prepare_guidance
    text = tmp_path / "README.md"
    text.write_text("# not a corpus\n\nsome words\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"no 'source<TAB>target' lines in '{re.escape(str(text))}'"):
        prepare_guidance(str(text), str(tmp_path / "c.tsv"), str(tmp_path / "l.txt"), log=None)
    assert not (tmp_path / "c.tsv").exists()


def test_bounded_reading_refuses_a_file_past_its_limit(tmp_path):
    big = tmp_path / "vocab.txt"
    big.write_bytes(b"a\n" * 600)
    with pytest.raises(ValueError, match=r"the vocabulary '.*vocab.txt' is 1200 bytes; at most 1000 bytes are read"):
        files.read_text(big, "vocabulary", max_bytes=1000)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nfine\nbro\xffken\n")
    with pytest.raises(ValueError, match=r"the vocabulary '.*bad.txt' is not UTF-8 text \(line 3\)"):
        files.read_text(bad, "vocabulary")


def test_an_opennmt_checkpoint_is_read_as_data(tmp_path):
    """OpenNMT-py pickles its options and, before 3.x, torchtext classes: a class the file names
    stands in as data, so a callable pickled into it never runs."""
    from alignscope import from_opennmt
    marker, evil = tmp_path / "ran", tmp_path / "model_step_1.pt"
    torch.save({"model": {}, "generator": {}, "vocab": {"src": ["a"], "tgt": ["b"]}, "opt": _Payload(marker)}, evil)
    with pytest.raises(ValueError):
        from_opennmt(str(evil))
    assert not marker.exists()
