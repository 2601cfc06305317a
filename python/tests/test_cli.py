"""python3 -m alignscope as users and scripts run it: demo, reference, export, import, train (the
options scripts already use) and convert's handling of bad input."""

import json
import os
import subprocess
import sys

import pytest
import torch

import alignscope


@pytest.fixture(scope="module")
def run(repo_root):
    env = dict(os.environ, PYTHONPATH=str(repo_root / "python"), OMP_NUM_THREADS="1")
    env.pop("WORLD_SIZE", None)

    def run(*args, check=True):
        r = subprocess.run([sys.executable, "-m", "alignscope", "--threads", "1", *map(str, args)], env=env,
                           capture_output=True, text=True, timeout=300)
        if check:
            assert r.returncode == 0, r.stderr
        return r
    return run


@pytest.fixture(scope="module")
def demo_dir(run, tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    r = run("demo", "--out", out, "--cell", "lstm", "--attention", "general")
    assert r.stdout.strip() == str(out / "model.pt")
    return out


def test_demo_writes_model_and_eager_reference(demo_dir):
    ref = json.loads((demo_dir / "reference.json").read_text(encoding="utf-8"))
    assert ref["architecture"]["cell"] == "lstm" and ref["architecture"]["attention"] == "general"
    assert ref["source_text"] == "the red car is big ." and ref["target_ids"][-1] == alignscope.EOS
    assert len(ref["steps"]) == len(ref["target_ids"])
    assert set(ref["steps"][0]) == {"y_prev", "token", "alpha", "log_probs", "context"}
    assert set(ref["loss"]) == {"smoothing", "loss_sum", "nll_sum", "n_tokens"}
    m = torch.jit.load(str(demo_dir / "model.pt"))
    assert json.loads(m.metadata)["name"] == "pytorch-demo" and json.loads(m.tgt_tokenizer)["split_elision"]


def test_reference_of_the_demo_file_repeats_the_demo_numbers(run, demo_dir, tmp_path):
    run("reference", "--model", demo_dir / "model.pt", "--out", tmp_path / "ref.json")
    again = json.loads((tmp_path / "ref.json").read_text(encoding="utf-8"))
    ref = json.loads((demo_dir / "reference.json").read_text(encoding="utf-8"))
    assert again["steps"] == ref["steps"] and again["loss"] == ref["loss"]


def test_import_then_export_keeps_the_model(run, demo_dir, tmp_path):
    run("import", "--model", demo_dir / "model.pt", "--out", tmp_path / "ckpt.pt")
    run("export", "--checkpoint", tmp_path / "ckpt.pt", "--out", tmp_path / "again.pt",
        "--metadata", '{"license": "CC0"}')
    a, src_a, tgt_a, info_a = alignscope.load(str(demo_dir / "model.pt"))
    b, src_b, tgt_b, info_b = alignscope.load(str(tmp_path / "again.pt"))
    assert (src_a, tgt_a) == (src_b, tgt_b) and info_a["tgt_tokenizer"] == info_b["tgt_tokenizer"]
    assert info_b["metadata"]["name"] == "pytorch-demo" and info_b["metadata"]["license"] == "CC0"
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


@pytest.fixture(scope="module")
def trained(run, toy_tsv, tmp_path_factory):
    """`train --steps --batch-size --save --export --json` as scripts ran it, plus a checkpoint folder;
    the conditional decoder, so that its weights go through every file the package writes."""
    out = tmp_path_factory.mktemp("trained")
    small = ["--embedding-size", 8, "--encoder-hidden", 8, "--decoder-hidden", 8, "--attention-size", 8,
             "--readout-size", 8]
    r = run("train", "--data", toy_tsv, "--steps", 6, "--batch-size", 8, "--device", "cpu", "--save",
            out / "ckpt.pt", "--export", out / "model.pt", "--json", "--checkpoint-dir", out / "ck",
            "--checkpoint-every", 3, "--decoder", "conditional", *small)
    return out, json.loads(r.stdout)


def test_train_with_the_old_options_and_a_training_checkpoint(run, trained):
    out, stats = trained
    assert stats["steps"] == 6 and stats["timed_steps"] == 5 and stats["batch_size"] == 8
    assert stats["target_tokens_per_second"] > 0 and stats["threads"] == 1
    assert sorted(os.listdir(out / "ck")) == ["step-00000003.pt", "step-00000006.pt"]
    # The newest training checkpoint is a checkpoint `export` reads: the same model as --export wrote.
    run("export", "--checkpoint", out / "ck" / "step-00000006.pt", "--out", out / "from-ck.pt")
    same = [alignscope.load(str(out / n))[0].state_dict() for n in ("model.pt", "from-ck.pt")]
    assert alignscope.load(str(out / "model.pt"))[0].arch.decoder == "conditional"
    assert any(name.startswith("decoder2.") for name in same[0])
    assert all(torch.equal(x, y) for x, y in zip(same[0].values(), same[1].values()))
    saved, _ = alignscope.load_checkpoint(str(out / "ckpt.pt"))
    assert all(torch.equal(x, y) for x, y in zip(saved.state_dict().values(), same[0].values()))

    r = run("train", "--data", out / "x.tsv", "--steps", 6, "--resume", check=False)
    assert r.returncode == 1 and r.stderr.strip() == "python3 -m alignscope: error: --resume needs --checkpoint-dir"


def test_a_resume_with_other_batching_names_what_differs(run, trained, toy_tsv):
    """A checkpoint's batching is its record: another batch size is refused with both values named,
    and the flags a run begun under the trainers' old defaults needs (docs/trainers.md)."""
    out, _ = trained
    r = run("train", "--data", toy_tsv, "--steps", 9, "--batch-size", 16, "--device", "cpu", "--checkpoint-dir",
            out / "ck", "--resume", "--decoder", "conditional", check=False)
    assert r.returncode == 1
    assert "batch_size 8 there, 16 now" in r.stderr and "--batch-size 32 --min-count 1" in r.stderr, r.stderr


def test_alignscope_cli_opens_the_trained_model(run_cli, trained):
    out, _ = trained
    r = run_cli("inspect", "--model", out / "model.pt")
    assert "meets AlignScope model format v2" in r.stdout, r.stdout + r.stderr


def test_train_says_what_is_wrong_with_the_data(run, tmp_path):
    (tmp_path / "empty.tsv").write_text("no tab here\n", encoding="utf-8")
    r = run("train", "--data", tmp_path / "empty.tsv", check=False)
    assert r.returncode == 1 and "no 'source<TAB>target' lines" in r.stderr and "empty.tsv" in r.stderr


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_convert_refuses_missing_and_malformed_input_in_one_line(run, tmp_path, capsys):
    from alignscope.__main__ import main

    good = tmp_path / "vocab.json"
    good.write_text('{"a": 0, "b": 1}', encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 0,', encoding="utf-8")
    h5 = tmp_path / "model.h5"
    h5.write_bytes(b"")
    out = tmp_path / "out.pt"

    # As a user runs it (the exit status and stderr of the process) ...
    r = run("convert", "keras", "--h5", tmp_path / "missing.h5", "--src-vocab", good, "--tgt-vocab", good,
            "-o", out, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert one_line(r.stderr) == f"python3 -m alignscope convert: error: cannot read the Keras file '{tmp_path / 'missing.h5'}': " \
                                 "no such file"

    # ... and the other cases through main(), the same code without a process start each.
    def convert(*args):
        status = main(["convert", *map(str, args), "-o", str(out)])
        return status, one_line(capsys.readouterr().err)

    status, line = convert("keras", "--h5", h5, "--src-vocab", good, "--tgt-vocab", bad)
    assert status == 2 and line.startswith("python3 -m alignscope convert: error: the target vocabulary")
    assert str(bad) in line and "not valid JSON (line 1, column" in line
    status, line = convert("keras", "--h5", h5, "--src-vocab", tmp_path / "nope.json", "--tgt-vocab", good)
    assert status == 2 and "nope.json" in line
    (tmp_path / "list.json").write_text('"just a string"', encoding="utf-8")
    status, line = convert("keras", "--h5", h5, "--src-vocab", tmp_path / "list.json", "--tgt-vocab", good)
    assert status == 2 and "list.json" in line and "JSON list of tokens" in line
    status, line = convert("keras", "--h5", tmp_path, "--src-vocab", good, "--tgt-vocab", good)
    assert status == 2 and "is a folder, not a regular file" in line
    status, line = convert("opennmt", "--checkpoint", tmp_path / "nmt.pt")
    assert status == 2 and line == f"python3 -m alignscope convert: error: cannot read the OpenNMT-py checkpoint " \
                                   f"'{tmp_path / 'nmt.pt'}': no such file"
    assert not out.exists()


def test_convert_calls_the_package_adapters(monkeypatch, tmp_path, capsys):
    """convert keras/opennmt hand their arguments to alignscope.from_keras_h5 / from_opennmt and save."""
    from alignscope.__main__ import main

    calls = []

    class Adapted:
        def save(self, path):
            calls.append(("save", path))

    def fake_keras(path, src_vocab, tgt_vocab, **options):
        calls.append(("keras", path, src_vocab, tgt_vocab, options))
        return Adapted()

    def fake_opennmt(checkpoint, **options):
        calls.append(("opennmt", checkpoint, options))
        return Adapted()

    monkeypatch.setattr(alignscope, "from_keras_h5", fake_keras)
    monkeypatch.setattr(alignscope, "from_opennmt", fake_opennmt)
    (tmp_path / "m.h5").write_bytes(b"h5")
    (tmp_path / "src.json").write_text('{"<pad>": 0, "a": 1}', encoding="utf-8")
    (tmp_path / "tgt.json").write_text('["x", "y"]', encoding="utf-8")
    (tmp_path / "nmt.pt").write_bytes(b"pt")
    assert main(["convert", "keras", "--h5", str(tmp_path / "m.h5"), "--src-vocab", str(tmp_path / "src.json"),
                 "--tgt-vocab", str(tmp_path / "tgt.json"), "--tx", "30", "--recurrent-activation", "hard_sigmoid",
                 "-o", str(tmp_path / "out.pt")]) == 0
    assert main(["convert", "opennmt", "--checkpoint", str(tmp_path / "nmt.pt"), "-o", str(tmp_path / "o.pt")]) == 0
    assert calls == [
        ("keras", str(tmp_path / "m.h5"), {"<pad>": 0, "a": 1}, ["x", "y"],
         {"Tx": 30, "Ty": None, "recurrent_activation": "hard_sigmoid"}),
        ("save", str(tmp_path / "out.pt")),
        ("opennmt", str(tmp_path / "nmt.pt"), {}),
        ("save", str(tmp_path / "o.pt")),
    ]
    assert capsys.readouterr().out.split() == [str(tmp_path / "out.pt"), str(tmp_path / "o.pt")]


def test_an_error_is_printed_whole(monkeypatch, tmp_path, capsys):
    """A TorchScript error says what went wrong on its first line and why on its last ones."""
    from alignscope.__main__ import main

    def fail(checkpoint, **options):
        raise RuntimeError("Module 'OpenNMTRNN' has no attribute 'x':\n  File \"<string>\", line 3\n"
                           "the cause is here")

    monkeypatch.setattr(alignscope, "from_opennmt", fail)
    (tmp_path / "nmt.pt").write_bytes(b"pt")
    assert main(["convert", "opennmt", "--checkpoint", str(tmp_path / "nmt.pt"), "-o", str(tmp_path / "o.pt")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("python3 -m alignscope convert: error: Module 'OpenNMTRNN' has no attribute 'x':\n")
    assert err.rstrip().endswith("the cause is here")


def test_the_package_wrappers_hand_the_adapters_options_through(monkeypatch):
    """alignscope.from_* keep their positional arguments and pass keyword-only options (name=, ...)."""
    import alignscope.adapters.d2l
    import alignscope.adapters.keras
    import alignscope.adapters.opennmt
    import alignscope.adapters.pytorch_tutorial

    def recorder(*args, **kwargs):
        return args, kwargs

    for module in (alignscope.adapters.d2l, alignscope.adapters.keras, alignscope.adapters.opennmt,
                   alignscope.adapters.pytorch_tutorial):
        for name in dir(module):
            if name.startswith("from_"):
                monkeypatch.setattr(module, name, recorder)
    assert alignscope.from_d2l("net", "data", name="n") == (("net", "data", None), {"num_steps": None, "name": "n"})
    assert alignscope.from_pytorch_tutorial("e", "d", "i", "o", 7, name="n") == \
        (("e", "d", "i", "o"), {"max_length": 7, "name": "n"})
    assert alignscope.from_keras_h5("m.h5", {}, {}, 30, 10) == \
        (("m.h5", {}, {}), {"Tx": 30, "Ty": 10, "recurrent_activation": "sigmoid"})
    assert alignscope.from_opennmt("c.pt", name="n", max_length=50) == (("c.pt",), {"name": "n", "max_length": 50})
