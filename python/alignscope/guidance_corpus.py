"""`python3 -m alignscope guide`: a training corpus made ready for guided alignment.

Reads a `source<TAB>target` corpus, aligns its words with the statistical aligner
(statistical_alignment.py: fast_align's model each way, joined by grow-diag-final-and) over the
tokens of text_forms (punctuation and French elisions split off), and writes

- the corpus again, line for line, with a share of its lines (`tokenized_share`, chosen by a seeded
  generator) in the lower-cased, tokenised form of alignment gold sets, so that a model trained on
  it reads both forms;
- the links of each written line over its whitespace words (token links projected onto words for
  lines as written; the token links themselves for tokenised lines): the `--guided-alignment` file.

Pairs given with `also` (a gold set's sentences, say) are aligned together with the corpus, as
unsupervised aligners are run on the text they are scored on, and their links written in both
forms: the statistical baseline that guided attention is compared with.
"""

import multiprocessing
import random
import sys
import time
import unicodedata
from typing import Dict, List, Optional, Sequence, Tuple

from .files import atomic_write
from .statistical_alignment import align_corpus, pharaoh
from .text import read_tsv_by_line
from .text_forms import project_links, tokens_by_word

Tokens = Tuple[List[str], List[int]]  # tokens of a sentence, and the written word of each


def _tokens(text: str, language: str) -> Tokens:
    tokens: List[str] = []
    words: List[int] = []
    for w, word_tokens in enumerate(tokens_by_word(text, language)):
        tokens.extend(word_tokens)
        words.extend([w] * len(word_tokens))
    return tokens, words


def _tokenize_pairs(args: Tuple[Sequence[Tuple[str, str]], str, str]) -> List[Tuple[Tokens, Tokens]]:
    pairs, src_language, tgt_language = args
    return [(_tokens(s, src_language), _tokens(t, tgt_language)) for s, t in pairs]


def _lower(tokens: Sequence[str]) -> str:
    """Tokens in the tokenised form: as text.tokenize lower-cases (case folding, then NFKC)."""
    return " ".join(unicodedata.normalize("NFKC", t.casefold()) for t in tokens)


def prepare_guidance(data: str, out_corpus: str, out_links: str, src_language: str = "en",
                     tgt_language: str = "fr", tokenized_share: float = 0.3, seed: int = 1,
                     device: str = "cpu", processes: int = 1, also: Optional[str] = None,
                     also_out: Optional[str] = None, log=sys.stderr) -> Dict[str, float]:
    """Writes out_corpus and out_links (and, given `also`, also_out.words.txt / also_out.tokens.txt:
    the grow-diag-final-and links of those pairs as written and tokenised). Returns counts."""
    if not 0.0 <= tokenized_share <= 1.0:
        raise ValueError("the tokenised share is a fraction between 0 and 1")
    start = time.perf_counter()
    lines = read_tsv_by_line(data)
    if not any(p is not None for p in lines):  # as train refuses it (Corpus.from_tsv)
        raise ValueError(f"no 'source<TAB>target' lines in '{data}'")
    also_lines = read_tsv_by_line(also) if also else []
    if None in also_lines:
        raise ValueError(f"'{also}' has lines that are not 'source<TAB>target' pairs")
    extra = [p for p in also_lines if p is not None]
    unique: Dict[Tuple[str, str], int] = {}
    for p in [p for p in lines if p is not None] + extra:
        unique.setdefault(p, len(unique))
    pairs = list(unique)
    chunks = [pairs[i:i + 20000] for i in range(0, len(pairs), 20000)]
    work = [(c, src_language, tgt_language) for c in chunks]
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            tokenized = [x for part in pool.map(_tokenize_pairs, work) for x in part]
    else:
        tokenized = [x for part in map(_tokenize_pairs, work) for x in part]
    if log is not None:
        print(f"guide: {len(lines)} lines, {len(pairs)} distinct pairs tokenised in "
              f"{time.perf_counter() - start:.0f} s", file=log, flush=True)
    links = align_corpus([(s[0], t[0]) for s, t in tokenized], device=device, log=log)["grow-diag-final-and"]
    rng = random.Random(f"alignscope-guide:{seed}")
    written = tokenized_lines = 0
    with atomic_write(out_corpus, encoding="utf-8") as corpus, atomic_write(out_links, encoding="utf-8") as out:
        for p in lines:
            as_tokens = rng.random() < tokenized_share
            if p is None:
                corpus.write("\n")
                out.write("\n")
                continue
            k = unique[p]
            (src_tokens, src_word), (tgt_tokens, tgt_word) = tokenized[k]
            if as_tokens and src_tokens and tgt_tokens:
                corpus.write(f"{_lower(src_tokens)}\t{_lower(tgt_tokens)}\n")
                out.write(pharaoh(links[k]) + "\n")
                tokenized_lines += 1
            else:
                corpus.write(f"{p[0]}\t{p[1]}\n")
                out.write(pharaoh(project_links(links[k], src_word, tgt_word)) + "\n")
            written += 1
    if also and also_out:
        with atomic_write(also_out + ".words.txt", encoding="utf-8") as words, \
                atomic_write(also_out + ".tokens.txt", encoding="utf-8") as tokens:
            for p in extra:
                k = unique[p]
                (_, src_word), (_, tgt_word) = tokenized[k]
                words.write(pharaoh(project_links(links[k], src_word, tgt_word)) + "\n")
                tokens.write(pharaoh(links[k]) + "\n")
    if log is not None:
        print(f"guide: {written} pairs written ({tokenized_lines} tokenised) in {time.perf_counter() - start:.0f} s",
              file=log, flush=True)
    return {"lines": len(lines), "pairs": written, "tokenized": tokenized_lines, "distinct": len(pairs),
            "seconds": time.perf_counter() - start}
