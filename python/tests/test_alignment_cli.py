"""alignscope-cli align and aer as issue 35 asks: a model's declared reverse model, and gold and
hypothesis files that count words from different bases."""

import pytest

from alignscope import export, load
from alignscope.demo import demo, demo_architecture
from alignscope.reference import Seq2SeqAttention

PAIRS = "the red car ||| la voiture rouge\na house ||| une maison\n"


@pytest.fixture()
def model_with_reverse(tmp_path):
    """A demo model whose metadata declares `rev.pt` (an untrained model of the other direction:
    vocabularies and tokenizers swapped) as its reverse model."""
    demo(str(tmp_path / "demo"), demo_architecture())
    model, src_vocab, tgt_vocab, info = load(str(tmp_path / "demo" / "model.pt"))
    reverse = Seq2SeqAttention(len(tgt_vocab), len(src_vocab), demo_architecture(), seed=8).eval()
    export(reverse, tgt_vocab, src_vocab, str(tmp_path / "rev.pt"), name="rev",
           src_tokenizer=info["tgt_tokenizer"], tgt_tokenizer=info["src_tokenizer"])
    export(model, src_vocab, tgt_vocab, str(tmp_path / "m.pt"), name="m", metadata={"reverse_model": "rev.pt"},
           src_tokenizer=info["src_tokenizer"], tgt_tokenizer=info["tgt_tokenizer"])
    (tmp_path / "pairs.txt").write_text(PAIRS)
    return tmp_path


def test_the_rules_of_two_directions_use_the_reverse_model_the_model_declares(run_cli, model_with_reverse):
    d = model_with_reverse
    for rule in ("grow-diag-final-and", "agreement-intersection"):
        implicit = run_cli("align", "--model", d / "m.pt", "--links", rule, "-i", d / "pairs.txt")
        explicit = run_cli("align", "--model", d / "m.pt", "--links", rule, "--reverse-model", d / "rev.pt",
                           "-i", d / "pairs.txt")
        assert implicit.stdout == explicit.stdout and len(implicit.stdout.splitlines()) == 2
    # a model that declares none still asks for one
    r = run_cli("align", "--model", d / "rev.pt", "--links", "intersection", "-i", d / "pairs.txt", check=False)
    assert r.returncode != 0 and "declares no reverse model" in r.stderr + r.stdout


def test_a_declared_reverse_model_never_leaves_the_models_folder(run_cli, model_with_reverse):
    d = model_with_reverse
    model, src_vocab, tgt_vocab, info = load(str(d / "m.pt"))
    export(model, src_vocab, tgt_vocab, str(d / "bad.pt"), name="bad", metadata={"reverse_model": "../rev.pt"},
           src_tokenizer=info["src_tokenizer"], tgt_tokenizer=info["tgt_tokenizer"])
    r = run_cli("align", "--model", d / "bad.pt", "--links", "intersection", "-i", d / "pairs.txt", check=False)
    assert r.returncode != 0
    assert "bad.pt' declares a reverse_model that is not a file name beside it" in r.stderr + r.stdout


def test_aer_reads_gold_and_hypotheses_counted_from_different_bases(run_cli, tmp_path):
    (tmp_path / "gold1.txt").write_text("1-1 2-3 3p2\n1-1\n")  # counted from 1, as standard gold sets
    (tmp_path / "gold0.txt").write_text("0-0 1-2 2p1\n0-0\n")
    (tmp_path / "hyp0.txt").write_text("0-0 1-2\n0-0 0-1\n")  # as align writes them
    (tmp_path / "hyp1.txt").write_text("1-1 2-3\n1-1 1-2\n")
    (tmp_path / "pairs.txt").write_text("a b c ||| x y z\nd ||| u v\n")
    same = run_cli("aer", "--gold", tmp_path / "gold0.txt", "--hyp", tmp_path / "hyp0.txt", "--json",
                   "--pairs", tmp_path / "pairs.txt").stdout
    mixed = run_cli("aer", "--gold", tmp_path / "gold1.txt", "--gold-one-based", "--hyp", tmp_path / "hyp0.txt",
                    "--json", "--pairs", tmp_path / "pairs.txt").stdout
    mixed_other_way = run_cli("aer", "--gold", tmp_path / "gold0.txt", "--hyp", tmp_path / "hyp1.txt",
                              "--hyp-one-based", "--json", "--pairs", tmp_path / "pairs.txt").stdout
    both = run_cli("aer", "--gold", tmp_path / "gold1.txt", "--hyp", tmp_path / "hyp1.txt", "--one-based",
                   "--json", "--pairs", tmp_path / "pairs.txt").stdout
    assert same == mixed == mixed_other_way == both
    # a 0 in a file said to count from 1 is refused with its file and line
    r = run_cli("aer", "--gold", tmp_path / "gold0.txt", "--gold-one-based", "--hyp", tmp_path / "hyp0.txt",
                check=False)
    assert r.returncode != 0 and "gold0.txt:1" in r.stderr + r.stdout
