#!/usr/bin/env python3
"""PyTorch-eager reference timings for scripts/bench.sh (run with /usr/bin/python3: Debian's, with torch).

Loads an AlignScope model file into the eager reference model of the Python package python/alignscope
(`alignscope.load` -> `Seq2SeqAttention`), checks once that the eager step's log-probs equal the
file's own TorchScript `step` within 1e-4 (so both sides run the same model), and times in eager
mode the operations tests/bench/CoreBenchmark.cpp times in AlignScope:

  load                 alignscope.load(path): torch.jit.load + eager model + load_state_dict
  encode/N             model.encode of the same N-token source (N = 10, 100), batch 1
  step/N               one decoder step at batch 1 from the same inputs: decode_step, logits,
                       log_softmax (what the file's `step` computes); the source encoded once
  greedy_10_words      tokenise + encode + greedy decode to </s> of the same 10-word sentence
  train                one update on the same synthetic batch (64 pairs, same generator): loss
                       (dropout 0.2, label smoothing 0.1), backward, clip at 1, Adam (lr 1e-3)
  train_intraop2       the same with PyTorch's intra-op pool at 2 as well (PyTorch's usual set-up;
                       --intraop2-repetitions, 3 by default, 0 skips it)

--train-name renames the `train` row and --skip-inference leaves out the rows before it:
scripts/bench.sh runs the script a second time that way, as `train_reused_memory`, in a process
started with glibc's malloc set as AlignScope's trainer sets it (core::Runtime::reuseFreedMemory).

Inference runs under torch.inference_mode(); training in train mode with autograd. Threads:
OpenBLAS's pool is set through openblas_set_num_threads (found in the mapped OpenBLAS library),
PyTorch's intra-op pool through torch.set_num_threads; the JSON records both for every row.
Timing: each repetition runs the operation until `--min-time` seconds have passed and keeps the
mean; the JSON holds the median, standard deviation and minimum over the repetitions (what
Google Benchmark's aggregates report), in milliseconds.

Usage: /usr/bin/python3 scripts/bench_reference.py --model models/en-fr.pt [--repetitions 10]
       [--min-time 0.5] [--out reference.json] [--intraop2-repetitions 3] [--skip-train]
       [--skip-inference] [--train-name train]
"""

import argparse
import ctypes
import json
import os
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402
from torch import nn  # noqa: E402

import alignscope  # noqa: E402
from alignscope import BOS, EOS, PAD, UNK, tokenize  # noqa: E402

INFERENCE_THREADS = os.cpu_count() or 1  # every core: AlignScope's app decodes on every core where that is faster
TRAINING_THREADS = 2   # as AlignScope trains (TrainingOptions::threads)
DROPOUT, SMOOTHING, LEARNING_RATE, CLIP_NORM, BATCH_PAIRS = 0.2, 0.1, 1e-3, 1.0, 64
SENTENCE_10_WORDS = "I think my little brother is very tired this evening."
WORDS = ["the", "red", "car", "is", "very", "fast", "and", "my", "house", "small"]


def source_of(tokens: int) -> str:
    """tokens - 1 words (tokens with </s>), as CoreBenchmark.cpp's sourceOf."""
    return " ".join(WORDS[i % 10] for i in range(tokens - 1))


# --------------------------------------------------------------------------------------------------
# Threads


class Blas:
    """OpenBLAS's thread controls, from the library this process has mapped (as core/runtime/Runtime.cpp)."""

    def __init__(self) -> None:
        a = torch.ones(64, 64)
        (a @ a).sum().item()  # make sure the BLAS is loaded
        self.path = ""
        self.lib: Optional[ctypes.CDLL] = None
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if "openblas" in path or "libblas.so" in path or "libmkl" in path:
                    self.path = os.path.realpath(path)
                    try:
                        lib = ctypes.CDLL(path)
                        lib.openblas_get_num_threads()
                        self.lib = lib
                        break
                    except (OSError, AttributeError):
                        continue

    def set_threads(self, n: int) -> None:
        if self.lib is not None:
            self.lib.openblas_set_num_threads(n)

    def threads(self) -> Optional[int]:
        return int(self.lib.openblas_get_num_threads()) if self.lib is not None else None

    def kernels(self) -> str:
        """OpenBLAS's kernel set ("SkylakeX"), as core/runtime/BlasKernels reads it; empty if not OpenBLAS."""
        if self.lib is None:
            return ""
        self.lib.openblas_get_corename.restype = ctypes.c_char_p
        return self.lib.openblas_get_corename().decode()


def set_threads(blas: Blas, blas_threads: int, intra_op: int) -> Dict[str, Any]:
    blas.set_threads(blas_threads)
    torch.set_num_threads(intra_op)
    return {"openblas": blas.threads(), "torch_intra_op": torch.get_num_threads()}


# --------------------------------------------------------------------------------------------------
# Timing


def measure(fn: Callable[[], Any], repetitions: int, min_time: float, warmup: int = 3) -> Dict[str, Any]:
    for _ in range(warmup):
        fn()
    per_iteration: List[float] = []
    iterations = 0
    for _ in range(repetitions):
        n = 0
        start = time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        per_iteration.append(elapsed / n * 1e3)
        iterations += n
    return {"median_ms": statistics.median(per_iteration),
            "stddev_ms": statistics.stdev(per_iteration) if len(per_iteration) > 1 else 0.0,
            "min_ms": min(per_iteration), "max_ms": max(per_iteration), "repetitions": repetitions,
            "iterations": iterations}


# --------------------------------------------------------------------------------------------------
# Inputs (the same as CoreBenchmark.cpp's)


def source_ids(text: str, vocab_index: Dict[str, int], settings: Dict[str, Any]) -> List[int]:
    return [vocab_index.get(t, UNK) for t in tokenize(text, settings)] + [EOS]


def synthetic_batch(source_vocab: int, target_vocab: int):
    """CoreBenchmark.cpp's syntheticBatch: 64-bit LCG (Knuth's MMIX constants), top 31 bits."""
    x = 2014
    mask = (1 << 64) - 1

    def next_value() -> int:
        nonlocal x
        x = (x * 6364136223846793005 + 1442695040888963407) & mask
        return x >> 33

    srcs, tgts = [], []
    for _ in range(BATCH_PAIRS):
        ns, nt = 8 + next_value() % 4, 8 + next_value() % 4
        srcs.append([4 + next_value() % (source_vocab - 4) for _ in range(ns)] + [EOS])
        tgts.append([4 + next_value() % (target_vocab - 4) for _ in range(nt)])
    S, T = max(len(s) for s in srcs), max(len(t) + 1 for t in tgts)
    src = torch.full((BATCH_PAIRS, S), PAD, dtype=torch.long)
    tgt_in = torch.full((BATCH_PAIRS, T), PAD, dtype=torch.long)
    tgt_out = torch.full((BATCH_PAIRS, T), PAD, dtype=torch.long)
    for i, (s, t) in enumerate(zip(srcs, tgts)):
        src[i, : len(s)] = torch.tensor(s)
        tgt_in[i, : len(t) + 1] = torch.tensor([BOS] + t)
        tgt_out[i, : len(t) + 1] = torch.tensor(t + [EOS])
    src_len = torch.tensor([len(s) for s in srcs])
    tokens = sum(len(t) + 1 for t in tgts)
    description = (f"{BATCH_PAIRS} pairs, src {S} x tgt {T}, {tokens} target tokens, checksum "
                   f"{int(src.sum().item() + tgt_out.sum().item())}")
    return (src, src_len, tgt_in, tgt_out), tokens, description


# --------------------------------------------------------------------------------------------------


def parity(path: str, model, src_ids: List[int], steps: int = 3) -> float:
    """Max |log-prob difference| between the eager step and the file's own TorchScript step."""
    scripted = torch.jit.load(path, map_location="cpu").float().eval()  # AlignScope widens float16 too
    worst = 0.0
    with torch.inference_mode():
        src, src_len = torch.tensor([src_ids]), torch.tensor([len(src_ids)])
        e_enc, e_state, e_mask, e_keys = model.encode(src, src_len)
        s_enc, s_state, s_mask, s_keys = scripted.encode(src, src_len)
        y = torch.tensor([BOS])
        for _ in range(steps):
            e = model.decode_step(y, e_state, e_enc, e_keys, e_mask)
            e_lp = torch.log_softmax(model.logits(e["readout"]), 1)
            s = scripted.step(y, s_state, s_enc, s_keys, s_mask)
            worst = max(worst, (e_lp - s["log_probs"]).abs().max().item(),
                        (e["alpha"] - s["alpha"]).abs().max().item())
            e_state, s_state = e["state"], s["state"]
            y = e_lp.argmax(1)
    return worst


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description="PyTorch-eager reference timings of an AlignScope model (JSON)")
    p.add_argument("--model", default=os.path.join(ROOT, "models", "en-fr.pt"))
    p.add_argument("--repetitions", type=int, default=10)
    p.add_argument("--min-time", type=float, default=0.5, help="seconds per repetition")
    p.add_argument("--train-repetitions", type=int, default=0, help="repetitions of the training rows (default: --repetitions)")
    p.add_argument("--intraop2-repetitions", type=int, default=3,
                   help="repetitions of the training row with PyTorch's intra-op pool at 2 (0: skip it)")
    p.add_argument("--skip-train", action="store_true")
    p.add_argument("--skip-inference", action="store_true", help="only the training rows (and the parity check)")
    p.add_argument("--train-name", default="train", help="name of the training row in the JSON")
    p.add_argument("--out", help="write the JSON here as well as to stdout")
    a = p.parse_args(argv)

    blas = Blas()
    results: Dict[str, Any] = {}
    threads_inference = set_threads(blas, INFERENCE_THREADS, 1)

    def timed(name: str, fn: Callable[[], Any], reps: int = a.repetitions, warmup: int = 3, **extra: Any) -> None:
        r = measure(fn, reps, a.min_time, warmup)
        r.update(extra)
        results[name] = r
        print(f"  {name:18s} {r['median_ms']:10.3f} ms  (sd {r['stddev_ms']:.3f}, {r['iterations']} it)", file=sys.stderr)

    if not a.skip_inference:
        timed("load", lambda: alignscope.load(a.model), threads=threads_inference)

    model, src_vocab, tgt_vocab, info = alignscope.load(a.model)
    model.eval()
    s_index = {t: i for i, t in enumerate(src_vocab)}
    ids = {n: source_ids(source_of(n), s_index, info["src_tokenizer"]) for n in (10, 100)}
    ids10w = source_ids(SENTENCE_10_WORDS, s_index, info["src_tokenizer"])
    diff = parity(a.model, model, ids[10])
    if not diff <= 1e-4:
        print(f"bench_reference.py: the eager model differs from the file's step by {diff:g} (> 1e-4): "
              "not the same model", file=sys.stderr)
        return 1

    if not a.skip_inference:
        with torch.inference_mode():
            for n in (10, 100):
                src, src_len = torch.tensor([ids[n]]), torch.tensor([len(ids[n])])
                timed(f"encode/{n}", lambda: model.encode(src, src_len), threads=threads_inference)
            for n in (10, 100):
                enc, state, mask, keys = model.encode(torch.tensor([ids[n]]), torch.tensor([len(ids[n])]))
                y = torch.tensor([BOS])

                def step() -> torch.Tensor:
                    out = model.decode_step(y, state, enc, keys, mask)
                    return torch.log_softmax(model.logits(out["readout"]), 1)

                timed(f"step/{n}", step, threads=threads_inference)

            translation: Dict[str, Any] = {}

            def greedy() -> None:
                sids = source_ids(SENTENCE_10_WORDS, s_index, info["src_tokenizer"])
                enc, state, mask, keys = model.encode(torch.tensor([sids]), torch.tensor([len(sids)]))
                y = torch.tensor([BOS])
                out_ids: List[int] = []
                alphas = []
                log_prob = 0.0
                for _ in range(2 * len(sids) + 10):
                    out = model.decode_step(y, state, enc, keys, mask)
                    lp = torch.log_softmax(model.logits(out["readout"]), 1)
                    best = int(lp[0].argmax().item())
                    log_prob += float(lp[0, best].item())
                    alphas.append(out["alpha"][0].tolist())
                    out_ids.append(best)
                    if best == EOS:
                        break
                    y = torch.tensor([best])
                    state = out["state"]
                translation["ids"] = out_ids

            timed("greedy_10_words", greedy, threads=threads_inference)
            results["greedy_10_words"]["output_tokens"] = len(translation["ids"])
            results["greedy_10_words"]["translation"] = " ".join(tgt_vocab[i] for i in translation["ids"] if i != EOS)

    batch_description = ""
    train_threads: Dict[str, Any] = {}
    if not a.skip_train:
        batch, tokens, batch_description = synthetic_batch(len(src_vocab), len(tgt_vocab))
        setups = [(a.train_name, 1, a.train_repetitions or a.repetitions)]
        if a.intraop2_repetitions > 0:
            setups.append(("train_intraop2", TRAINING_THREADS, a.intraop2_repetitions))
        for name, intra_op, reps in setups:
            trained, _, _, _ = alignscope.load(a.model)  # fresh weights for each set-up
            trained.dropout = DROPOUT
            trained.train()
            optimizer = torch.optim.Adam(trained.parameters(), lr=LEARNING_RATE)
            torch.manual_seed(1)
            threads = set_threads(blas, TRAINING_THREADS, intra_op)
            train_threads[name] = threads

            def update() -> float:
                loss_sum, nll_sum, n = trained.loss(*batch, SMOOTHING)
                optimizer.zero_grad()
                (loss_sum / n).backward()
                nn.utils.clip_grad_norm_(trained.parameters(), CLIP_NORM)
                optimizer.step()
                return nll_sum.item() / n.item()

            timed(name, update, reps=reps, warmup=1, threads=threads,
                  target_tokens=tokens)
            results[name]["target_tokens_per_s"] = tokens / (results[name]["median_ms"] / 1e3)
        set_threads(blas, INFERENCE_THREADS, 1)

    report = {
        "torch_version": torch.__version__,
        "python": sys.version.split()[0],
        "model": os.path.abspath(a.model),
        "blas": (blas.path or "unknown") + (f", {blas.kernels()} kernels" if blas.kernels() else ""),
        "threads": {"inference": threads_inference, **train_threads},
        "parity_max_abs_diff": diff,
        "ids": {"src10": ids[10], "src100": ids[100], "sentence10": ids10w},
        "batch": batch_description,
        "settings": {"repetitions": a.repetitions, "min_time_s": a.min_time,
                     "train_repetitions": a.train_repetitions or a.repetitions},
        "results": results,
    }
    text = json.dumps(report, indent=1, ensure_ascii=False)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
