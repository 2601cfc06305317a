"""The tokenizer kinds a model file declares, run by AlignScope's C++ core through `alignscope-cli
trace`: SentencePiece (its model stored in the file), characters and normalisers, each token with
the offsets of the characters it came from in the line as typed."""

import base64
import json

import pytest

import alignscope

sentencepiece = pytest.importorskip("sentencepiece")

SENTENCES = [
    "The agreement on the European Economic Area was signed in August 1992.",
    "The red car is very fast.",
    "She reads a book in the garden every morning.",
    "We signed the treaty in Brussels in 1992.",
    "Économie et société : les défis de l'Europe.",
] * 20


def small_model(src_vocab, tgt_vocab):
    arch = alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=8, attention_size=8, readout_size=8)
    return alignscope.Seq2SeqAttention(len(src_vocab), len(tgt_vocab), arch, seed=3).eval()


def trace(run_cli, model, lines, tmp_path):
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run_cli("trace", "--model", model, "--max-len", 3, "-i", tmp_path / "in.txt")
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_sentencepiece_pieces_and_offsets_are_the_python_libraries(run_cli, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    prefix = tmp_path / "sp"
    sentencepiece.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), vocab_size=320, hard_vocab_limit=False,
                                             character_coverage=1.0, byte_fallback=True, split_digits=True,
                                             bos_id=-1, eos_id=-1, unk_id=0, pad_id=-1)
    sp = sentencepiece.SentencePieceProcessor(model_file=str(prefix) + ".model")
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    vocab = alignscope.SPECIALS + [p for p in pieces if p not in alignscope.SPECIALS]
    tokenizer = {"kind": "sentencepiece", "model": base64.b64encode((tmp_path / "sp.model").read_bytes()).decode()}
    model = tmp_path / "sp.pt"
    alignscope.export(small_model(vocab, vocab), vocab, vocab, str(model), src_tokenizer=tokenizer, tgt_tokenizer=tokenizer)

    lines = ["The agreement was signed in August 1992.", "Économie : l'Europe signe.", "Zwölf Qubits!"]
    for line, got in zip(lines, trace(run_cli, model, lines, tmp_path)):
        want = sp.encode(line, out_type=str)
        assert got["source_tokens"] == want + ["</s>"]
        assert got["source_ids"] == [vocab.index(p) if p in vocab else 1 for p in want] + [3]
        # each piece's offsets cover the characters it came from: the pieces' surfaces put together
        # are the line (SentencePiece writes its word-start mark where the space was)
        line_bytes = line.encode("utf-8")
        spans = [line_bytes[b:e].decode("utf-8") for b, e in got["source_offsets"][:-1]]
        assert "".join(spans).replace(" ", "") == line.replace(" ", "")


def test_characters_with_normalisers_point_back_into_the_typed_line(run_cli, tmp_path):
    chars = list("abcdefghijklmnopqrstuvwxyz0123456789 -")
    vocab = alignscope.SPECIALS + chars
    tokenizer = {"kind": "char", "keep_spaces": True,
                 "normalizers": [{"type": "nfd"}, {"type": "strip_accents"}, {"type": "lowercase"},
                                 {"type": "replace", "pattern": ",", "content": ""}]}
    model = tmp_path / "chars.pt"
    alignscope.export(small_model(vocab, vocab), vocab, vocab, str(model), src_tokenizer=tokenizer,
                      tgt_tokenizer={"kind": "char", "detokenizer": "concat"})
    line = "Ée, 3 Mai"
    got = trace(run_cli, model, [line], tmp_path)[0]
    assert got["source_tokens"] == ["e", "e", " ", "3", " ", "m", "a", "i", "</s>"]
    raw = line.encode("utf-8")
    assert [raw[b:e].decode("utf-8") for b, e in got["source_offsets"]] == ["É", "e", " ", "3", " ", "M", "a", "i", ""]
