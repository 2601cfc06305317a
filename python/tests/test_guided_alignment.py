"""The statistical aligner (fast_align's model over whole corpora as tensors), the text forms of
alignment gold sets, and guided-alignment training."""

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from alignscope.architecture import Architecture
from alignscope.guided import guidance_tensor, token_guide, word_of_tokens
from alignscope.statistical_alignment import FastAlign, align_corpus, grow_diag_final_and, pharaoh
from alignscope.text import tokenize
from alignscope.text_forms import format_gold, parse_gold, project_gold, tokenized, tokens_by_word
from alignscope.training import train

REPO = Path(__file__).resolve().parents[2]


def _baseline():
    spec = importlib.util.spec_from_file_location("fast_align_baseline", REPO / "scripts" / "fast_align_baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _toy_corpus(n=400, seed=3):
    """Sentences of a made-up language pair with word reordering, so links are not the diagonal."""
    rng = random.Random(seed)
    lexicon = {f"e{i}": f"f{i}" for i in range(30)}
    pairs = []
    for _ in range(n):
        words = [f"e{rng.randrange(30)}" for _ in range(rng.randint(2, 8))]
        french = [lexicon[w] for w in words]
        if len(french) > 2 and rng.random() < 0.5:
            french[0], french[1] = french[1], french[0]
        pairs.append((words, french))
    return pairs


@pytest.mark.parametrize("chunk", [1 << 26, 37])
def test_fast_align_matches_the_line_by_line_reimplementation(chunk):
    base = _baseline()
    pairs = _toy_corpus()
    src_ids, tgt_ids = {}, {}
    sents = [([src_ids.setdefault(w, len(src_ids) + 1) for w in s], [tgt_ids.setdefault(w, len(tgt_ids)) for w in t])
             for s, t in pairs]
    ours = FastAlign(sents, len(src_ids) + 1, len(tgt_ids), chunk_entries=chunk).train()
    theirs = base.FastAlign([(tuple(s), tuple(t)) for s, t in sents], len(src_ids) + 1, len(tgt_ids),
                            tension_mode="corrected", log=open("/dev/null", "w"))
    theirs.train()
    assert ours.tension == pytest.approx(theirs.tension, rel=1e-6)
    assert [sorted(x) for x in ours.links()] == [sorted(theirs.align(s)) for s in
                                                [(tuple(s), tuple(t)) for s, t in sents]]


def test_align_corpus_finds_the_toy_lexicon_and_symmetrises_as_atools():
    pairs = _toy_corpus()
    result = align_corpus(pairs, log=None)
    correct = total = 0
    for (s, t), links in zip(pairs, result["grow-diag-final-and"]):
        total += len(t)
        correct += sum(1 for i, j in links if t[j] == "f" + s[i][1:])
    assert correct / total > 0.95
    for f, r, i in zip(result["forward"], result["reverse"], result["intersection"]):
        assert i == f & r
    # atools passes over the union links in (i, j) order: 1-2, then 2-3 (diagonal of 1-2), then
    # 3-2 (diagonal of 2-3), which leaves 3-3 joining two aligned words. (tests/LinkTest.cpp's C++
    # rule walks neighbours in Moses' order on the same case and keeps 3-3 instead.)
    forward = {(0, 0), (1, 1), (2, 3), (3, 2)}
    reverse = {(0, 0), (1, 1), (1, 2), (3, 3), (4, 5)}
    assert grow_diag_final_and(forward, reverse) == {(0, 0), (1, 1), (1, 2), (2, 3), (3, 2), (4, 5)}
    assert pharaoh({(1, 0), (0, 1)}) == "0-1 1-0"


def test_gold_forms_project_token_links_onto_written_words():
    en, fr = "I have cats?", "J'ai des chats ?"
    assert tokens_by_word(fr, "fr") == [["J'", "ai"], ["des"], ["chats"], ["?"]]
    assert tokenized(fr, "fr") == "j' ai des chats ?"
    assert tokenized("Don't go.", "en") == "don't go ."
    sure, possible = parse_gold("0-0 1-1 2-3 3-4 2p2")
    words_sure, words_possible = project_gold(sure, possible, en, fr, "en", "fr")
    # j'-I and ai-have both land in J'ai; ?-? between "cats?" and a lone "?" is only possible
    assert words_sure == {(0, 0), (1, 0), (2, 2)}
    assert words_possible == {(2, 1), (2, 3)}
    assert format_gold(words_sure, words_possible) == "0-0 1-0 2p1 2-2 2p3"
    # two marks attached to words are no link between the words
    assert project_gold({(1, 1)}, set(), "go.", "va.", "en", "fr") == (set(), set())


def test_guidance_reaches_every_piece_of_a_linked_word():
    # "the red-car" -> pieces [_the, _red, -car]; target "la voiture" -> [_la, _voi, ture]
    src_word = word_of_tokens("the red-car", ["\u2581the", "\u2581red", "-car"], None, pieces=True)
    tgt_word = word_of_tokens("la voiture", ["\u2581la", "\u2581voi", "ture"], None, pieces=True)
    assert src_word == [0, 1, 1] and tgt_word == [0, 1, 1]
    guide = token_guide([(0, 0), (1, 1)], src_word, tgt_word, 3, 3)
    assert guide == [(0, 0), (1, 1), (1, 2), (2, 1), (2, 2), (3, 3)]
    g = guidance_tensor([guide], 4, 4)
    assert torch.allclose(g[0].sum(1), torch.ones(4))
    assert g[0, 1, 1].item() == pytest.approx(0.5)
    # a word count that the pieces do not match: no guidance rather than a wrong one
    assert word_of_tokens("a b", ["\u2581a"], None, pieces=True) is None
    assert word_of_tokens("cats?", ["cats", "?"], tokenize, pieces=False) == [0, 0]


def test_guided_training_moves_attention_toward_the_links(tmp_path):
    rng = random.Random(5)
    lines, links = [], []
    for _ in range(300):  # target order reversed: the diagonal is wrong, the links are right
        words = [f"w{rng.randrange(12)}" for _ in range(rng.randint(3, 6))]
        lines.append(" ".join(words) + "\t" + " ".join(f"x{w[1:]}" for w in reversed(words)))
        links.append(" ".join(f"{i}-{len(words) - 1 - i}" for i in range(len(words))))
    (tmp_path / "c.tsv").write_text("\n".join(lines) + "\n")
    (tmp_path / "c.links").write_text("\n".join(links) + "\n")

    def attention_on_links(weight):
        kwargs = dict(guided_alignment=str(tmp_path / "c.links"), guided_weight=weight) if weight else {}
        arch = Architecture(embedding_size=24, encoder_hidden=24, decoder_hidden=48, attention_size=24,
                            readout_size=24)
        result = train(str(tmp_path / "c.tsv"), arch, None, steps=150, batch_size=32, lr=1e-2, device="cpu", seed=1,
                       log_every=0, **kwargs)
        from alignscope.batching import make_batch
        from alignscope.corpus import Corpus
        corpus = Corpus.from_tsv(str(tmp_path / "c.tsv"), word_links=[[(i, len(line.split("\t")[0].split()) - 1 - i)
                                                                        for i in range(len(line.split("\t")[0].split()))]
                                                                       for line in lines])
        pairs = corpus.pairs[:64]
        src, src_len, tgt_in, _ = make_batch(pairs)
        with torch.no_grad():
            _, alpha = result.model(src, src_len, tgt_in)
        g = guidance_tensor(corpus.guides[:64], tgt_in.size(1), src.size(1))
        return float((alpha * g).sum() / g.sum())

    assert attention_on_links(1.0) > attention_on_links(0.0) + 0.2


def test_guide_command_writes_a_corpus_and_its_links(tmp_path):
    lines = ["The cat sleeps.\tLe chat dort.", "I have a dog.\tJ'ai un chien.", "bad line", "Thanks!\tMerci !"] * 5
    (tmp_path / "c.tsv").write_text("\n".join(lines) + "\n")
    out = subprocess.run([sys.executable, "-m", "alignscope", "guide", "--data", str(tmp_path / "c.tsv"),
                          "--out-corpus", str(tmp_path / "g.tsv"), "--out-links", str(tmp_path / "g.links"),
                          "--tokenized-share", "0.5"], capture_output=True, text=True,
                         env={"PYTHONPATH": str(REPO / "python"), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    corpus = (tmp_path / "g.tsv").read_text().split("\n")[:-1]
    links = (tmp_path / "g.links").read_text().split("\n")[:-1]
    assert len(corpus) == len(links) == len(lines)
    assert corpus[2] == "" and links[2] == ""  # a bad line stays a line, so the two files keep step
    assert any(line == "i have a dog .\tj' ai un chien ." for line in corpus)
    assert any(line == "I have a dog.\tJ'ai un chien." for line in corpus)
    for line, link in zip(corpus, links):
        if line:
            s, t = line.split("\t")
            assert all(i < len(s.split()) and j < len(t.split()) for i, j in
                       (map(int, x.split("-")) for x in link.split()))
