"""Training the eager reference model: `python3 -m alignscope train`, or train() from Python.

Adam with label smoothing and gradient clipping on length-bucketed batches, on the CPU or a GPU;
under torchrun, several processes or GPUs through DistributedDataParallel, each rank taking its
share of every epoch's batches. Training checkpoints hold everything a resumed run needs to
continue exactly (weights, optimizer, random generators, epoch and position in it); the result is
written as an AlignScope model file by export(), the same file as any other export.
"""

import dataclasses
import gc
import hashlib
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import torch
from torch import Tensor, nn
from torch.nn.parallel import DistributedDataParallel

from .architecture import Architecture, architecture_of
from .batching import LengthBuckets, make_batch
from .checkpoint import (checkpoint_dict, latest_training_checkpoint, read_checkpoint, save_checkpoint,
                         write_training_checkpoint)
from .corpus import Corpus
from .decoding import LoadedModel
from .distributed import Distributed
from .export import export, load
from .files import open_input
from .guided import guidance_tensor, read_links
from .subwords import PieceTokenizer, train_pieces
from .text import DEFAULT_TOKENIZER, read_tsv
from .timeline import TrainingTimeline, snapshot_steps
from .reference import Seq2SeqAttention

# The options both trainers share, with their flags, defaults and help: the C++ build embeds the
# same file (core/training/TrainingOptionsSchema.cpp), so the two cannot drift apart.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "training_options.json"), encoding="utf-8") as _schema:
    SHARED_OPTIONS: Dict[str, Dict[str, Any]] = json.load(_schema)["options"]


def shared_default(name: str) -> Any:
    option = SHARED_OPTIONS[name]
    return int(option["default"]) if option["type"] == "int" else float(option["default"])



def reuse_freed_memory() -> None:
    """Runtime::reuseFreedMemory: glibc keeps freed blocks instead of handing them back to the kernel
    (mmap threshold 32 MB, trim threshold 512 MB), so an update does not fault its buffers in again;
    on 2 CPU cores half of a training process's time went to page faults. A no-op off glibc."""
    import ctypes
    import ctypes.util
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3
        libc.mallopt(m_mmap_threshold, 32 << 20)
        libc.mallopt(m_trim_threshold, 512 << 20)
    except (OSError, AttributeError):
        pass

@dataclasses.dataclass
class TrainingOptions:
    steps: Optional[int] = None  # stop after this many updates in all (resumed runs count the earlier ones)
    epochs: Optional[int] = None  # stop after this many passes over the corpus; neither: the shared default epochs
    batch_size: Optional[int] = shared_default("batch_size")  # pairs per batch at most (per process)
    batch_tokens: Optional[int] = None  # padded tokens per batch at most: pairs x longest side
    pool_size: int = 10000  # pairs sorted by length together
    lr: float = shared_default("lr")
    dropout: float = shared_default("dropout")
    smoothing: float = shared_default("smoothing")  # label smoothing
    clip: float = shared_default("clip")  # gradient norm clip (0: none)
    max_len: int = shared_default("max_len")  # tokens kept per sentence (cut; the C++ trainer leaves longer pairs out)
    min_count: int = shared_default("min_count")
    max_vocab: int = shared_default("max_vocab")  # vocabulary cap incl. specials (0: none)
    seed: int = shared_default("seed")
    warmup: int = 1  # first steps of this run left out of the timing
    log_every: int = 50  # progress line on stderr every N steps (0: none)
    device: Optional[str] = None  # cpu | cuda | cuda:N (default: cuda where available)
    checkpoint_dir: Optional[str] = None
    checkpoint_every: int = 1000  # steps between training checkpoints
    keep_checkpoints: int = 3  # newest training checkpoints kept (0: all)
    resume: bool = False  # continue from the newest checkpoint in checkpoint_dir, if any
    name: str = "pytorch-model"  # model name in the written files
    out: Optional[str] = None  # AlignScope model file written at the end
    save: Optional[str] = None  # plain checkpoint (save_checkpoint) written at the end
    snapshots: int = shared_default("snapshots")  # model files written beside `out` at log-uniformly spaced updates (timeline.py)
    tokenizer: str = "word"  # word (AlignScope's lower-cased words) | sentencepiece (cased sub-words, trained here)
    pieces: int = shared_default("pieces")  # sentencepiece: pieces per vocabulary
    joint: bool = False  # sentencepiece: one model and vocabulary for both sides
    tokenizer_from: Optional[str] = None  # a sub-word model file whose tokenizers and vocabularies are taken as they are
    init_from: Optional[str] = None  # a model file trained on from where it stands (weights, vocabularies, tokenizers)
    half: bool = False  # model files (out, snapshots) store float16 weights: half the size
    guided_alignment: Optional[str] = None  # Pharaoh word links, line k for corpus line k (guided.py)
    guided_weight: float = shared_default("guided_weight")  # weight of the attention's cross-entropy against the links
    max_minutes: Optional[float] = None  # stop after the update that passes this much training time
    source_language: Optional[str] = None  # ISO 639 code ("en") in the model's metadata, where front ends name it
    target_language: Optional[str] = None  # ("de")


@dataclasses.dataclass
class TrainingResult:
    model: Seq2SeqAttention  # on the training device, in eval mode
    src_vocab: List[str]
    tgt_vocab: List[str]
    stats: Dict[str, Any]


class LossOf(nn.Module):
    """The model's loss as forward(), so DistributedDataParallel sees the call it synchronises."""

    def __init__(self, model: Seq2SeqAttention) -> None:
        super().__init__()
        self.model = model

    def forward(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor,
                smoothing: float, guidance: Optional[Tensor] = None,
                weight: float = 0.0) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        return self.model.guided_loss(src, src_len, tgt_in, tgt_out, smoothing, guidance, weight)


def _file_digest(path: str, what: str = "file") -> str:
    h = hashlib.sha256()
    with open_input(path, what) as f:  # a regular file: /dev/zero or a FIFO would be read for ever
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _rng_state(device: torch.device) -> Dict[str, Any]:
    state = {"cpu": torch.get_rng_state()}
    if device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(device)
    return state


def _set_rng_state(state: Dict[str, Any], device: torch.device) -> None:
    torch.set_rng_state(state["cpu"])
    if device.type == "cuda" and "cuda" in state:
        torch.cuda.set_rng_state(state["cuda"], device)


def _log(dist: Distributed, message: str) -> None:
    if dist.is_main:
        print(message, file=sys.stderr, flush=True)


class Trainer:
    """One training run; run() trains until the steps or epochs are done."""

    def __init__(self, data: str, arch: Optional[Architecture], options: TrainingOptions,
                 dist: Optional[Distributed] = None) -> None:
        o = self.options = options
        if o.steps is None and o.epochs is None:
            o.epochs = shared_default("epochs")
        if (o.steps is not None and o.steps < 0) or (o.epochs is not None and o.epochs < 0):
            raise ValueError("steps and epochs cannot be negative")
        if o.resume and not o.checkpoint_dir:
            raise ValueError("--resume needs --checkpoint-dir")
        if o.snapshots < 0:
            raise ValueError("snapshots cannot be negative")
        if o.snapshots > 0 and not o.out:
            raise ValueError("--snapshots writes its files beside the model: give --out")
        for flag, donor in (("--tokenizer-from", o.tokenizer_from), ("--init-from", o.init_from)):
            if not donor:
                continue
            # Its vocabularies are the donor's as they are: settings that would build others are refused, as
            # the C++ trainer's CLI does, rather than quietly ignored.
            defaults = TrainingOptions()
            own = [name for name, field in (("--tokenizer", "tokenizer"), ("--vocab-size", "pieces"),
                                            ("--joint", "joint"), ("--min-count", "min_count"),
                                            ("--max-vocab", "max_vocab"), ("--tokenizer-from", "tokenizer_from"))
                   if name != flag and getattr(o, field) != getattr(defaults, field)]
            if own:
                raise ValueError(f"{flag} '{donor}' takes that model's tokenizers and vocabularies "
                                 f"as they are: leave out {', '.join(own)}")
        # --init-from trains the donor's own architecture; --decoder conditional alone may change it, a warm
        # start of the conditional decoder from a Bahdanau model (reference.with_conditional_decoder); a
        # conditional donor is trained on as it is.
        to_conditional = bool(o.init_from) and arch == Architecture(decoder="conditional")
        if o.init_from and arch is not None and arch != Architecture() and not to_conditional:
            raise ValueError(f"--init-from '{o.init_from}' trains that model's own architecture: leave out the "
                             f"architecture options (--decoder conditional alone is taken: a warm start)")
        self.continued_from: Optional[Dict[str, Any]] = None  # with init_from: the starting model's record
        self.dist = dist or Distributed.start(o.device)
        self.device = self.dist.device
        resume_from = latest_training_checkpoint(o.checkpoint_dir) if o.resume and o.checkpoint_dir else None
        if o.resume and resume_from is None:
            _log(self.dist, f"no training checkpoint in '{o.checkpoint_dir}' yet: starting afresh")
        ckpt = read_checkpoint(resume_from) if resume_from else None

        # What must not change under a resumed run: the corpus and how it is cut into batches.
        self.data_fingerprint = {"pairs_file_sha256": _file_digest(data, "corpus"), "max_len": o.max_len,
                                 "min_count": o.min_count, "max_vocab": o.max_vocab}
        self.word_links = None
        if o.guided_alignment:
            if not os.path.isfile(o.guided_alignment):
                raise ValueError(f"the links file '{o.guided_alignment}' (--guided-alignment) does not exist")
            if o.guided_weight <= 0:
                raise ValueError("--guided-weight must be positive")
            self.word_links = read_links(o.guided_alignment)
            self.data_fingerprint["guided_alignment_sha256"] = _file_digest(o.guided_alignment)
        self.batching = {"batch_size": o.batch_size, "batch_tokens": o.batch_tokens, "pool_size": o.pool_size,
                         "seed": o.seed}
        if o.tokenizer_from:
            self.batching["tokenizer_from"] = _file_digest(o.tokenizer_from)
        elif o.init_from:
            self.batching["init_from"] = _file_digest(o.init_from)
        elif o.tokenizer != "word":  # (word-level runs' checkpoints predate the key)
            self.batching.update({"tokenizer": o.tokenizer, "pieces": o.pieces, "joint": o.joint})
        if ckpt is not None:
            for key, mine in (("data", self.data_fingerprint), ("batching", self.batching)):
                saved_settings = ckpt.get(key)
                if key == "data" and not self._counts_vocabularies() and isinstance(saved_settings, dict):
                    # Vocabularies from pieces or a donor model: the counts built nothing, so a run
                    # begun under another default of theirs goes on.
                    saved_settings = dict(saved_settings, min_count=mine["min_count"], max_vocab=mine["max_vocab"])
                if saved_settings != mine:
                    differ = sorted(k for k in set(saved_settings or {}) | set(mine)
                                    if (saved_settings or {}).get(k) != mine.get(k))
                    raise ValueError(f"'{resume_from}' was written with other {key} settings: "
                                     + ", ".join(f"{k} {(saved_settings or {}).get(k)!r} there, {mine.get(k)!r} now"
                                                 for k in differ)
                                     + "; resume with the same corpus and batching, or start a new --checkpoint-dir. "
                                     "A run begun before the trainers shared their defaults (docs/trainers.md) "
                                     "resumes with its old ones given: --batch-size 32 --min-count 1 "
                                     "--dropout 0 --smoothing 0 --clip 5")
            saved = architecture_of(ckpt["architecture"], f"the checkpoint '{resume_from}'")
            if arch is not None and arch != saved:
                _log(self.dist, f"note: resuming with the checkpoint's architecture ({saved}), not the one given")
            arch = saved
            self._piece_tokenizers(data, ckpt)
            self.corpus = Corpus.from_tsv(data, o.max_len, o.min_count, o.max_vocab, ckpt["src_vocab"],
                                          ckpt["tgt_vocab"], self.src_pieces, self.tgt_pieces, self.word_links,
                                          o.guided_alignment or "")
        elif o.init_from:
            donor, src_vocab, tgt_vocab = self._model_to_continue(o.init_from)
            if to_conditional and donor.arch.decoder == "bahdanau":
                donor = donor.with_conditional_decoder(seed=o.seed)
                self.continued_from["decoder"] = "bahdanau, its weights in the conditional decoder's two cells"
            arch = donor.arch
            self.corpus = Corpus.from_tsv(data, o.max_len, o.min_count, o.max_vocab, src_vocab, tgt_vocab,
                                          self.src_pieces, self.tgt_pieces, self.word_links,
                                          o.guided_alignment or "")
        elif o.tokenizer_from:
            src_vocab, tgt_vocab = self._tokenizers_of(o.tokenizer_from)
            self.corpus = Corpus.from_tsv(data, o.max_len, o.min_count, o.max_vocab, src_vocab, tgt_vocab,
                                          self.src_pieces, self.tgt_pieces, self.word_links,
                                          o.guided_alignment or "")
        else:
            self._piece_tokenizers(data, None)
            self.corpus = Corpus.from_tsv(data, o.max_len, o.min_count, o.max_vocab,
                                          self.src_pieces.pieces() if self.src_pieces else None,
                                          self.tgt_pieces.pieces() if self.tgt_pieces else None,
                                          self.src_pieces, self.tgt_pieces, self.word_links,
                                          o.guided_alignment or "")  # None: the word tokenizer
        self.arch = arch or Architecture()
        if self.corpus.guides is not None:
            guided = len(self.corpus.pairs) - self.corpus.unguided
            _log(self.dist, f"guided alignment: {guided} of {len(self.corpus.pairs)} pairs have links matched to their "
                            f"tokens (weight {o.guided_weight})")
        self.buckets = LengthBuckets(self.corpus.pairs, o.batch_size, o.batch_tokens, o.pool_size, o.seed)

        # The same initial weights on every rank (and DDP broadcasts rank 0's anyway).
        self.model = Seq2SeqAttention(len(self.corpus.src_vocab), len(self.corpus.tgt_vocab), self.arch,
                                      dropout=o.dropout, seed=o.seed)
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=o.lr)
        self.step, self.epoch, self.batches_done = 0, 0, 0  # batches_done: of this epoch's list, all ranks
        self.loss_history: List[float] = []  # [updates] training NLL/token, for the timeline's curve
        self.recent_loss = 0.0  # its running mean over this run's updates, as the C++ trainer keeps it
        torch.manual_seed(o.seed + self.dist.rank)  # dropout: one stream per rank
        if self.device.type == "cuda":
            torch.cuda.manual_seed(o.seed + self.dist.rank)
        if ckpt is not None:
            self._restore(ckpt, resume_from)
        elif o.init_from:
            # Adam's moments are not in a model file: the optimiser starts afresh and rebuilds them.
            self.model.load_state_dict(donor.state_dict())
            _log(self.dist, f"training '{o.init_from}' on from where it stands, with a fresh optimiser")
        loss = LossOf(self.model)
        self.net: Optional[nn.Module] = loss
        if self.dist.active:
            ids = [self.device.index] if self.device.type == "cuda" else None
            self.net = DistributedDataParallel(loss, device_ids=ids)

    def _counts_vocabularies(self) -> bool:
        """Whether --min-count and --max-vocab build the vocabularies (words counted here)."""
        o = self.options
        return o.tokenizer == "word" and not o.tokenizer_from and not o.init_from

    def _piece_tokenizers(self, data: str, ckpt: Optional[Dict[str, Any]]) -> None:
        """Sub-word tokenizers: a resumed run's own, else SentencePiece models trained on the corpus
        with the settings both trainers share (subwords.py)."""
        o = self.options
        self.src_pieces: Optional[PieceTokenizer] = None
        self.tgt_pieces: Optional[PieceTokenizer] = None
        if ckpt is not None and (ckpt.get("src_tokenizer") or {}).get("kind") == "sentencepiece":
            self.src_pieces = PieceTokenizer.from_description(ckpt["src_tokenizer"])
            self.tgt_pieces = PieceTokenizer.from_description(ckpt["tgt_tokenizer"])
            return
        if o.tokenizer == "word":
            return
        if o.tokenizer != "sentencepiece":
            raise ValueError(f"unknown tokenizer '{o.tokenizer}' (word or sentencepiece)")
        texts = read_tsv(data)
        if o.joint:
            self.src_pieces = self.tgt_pieces = PieceTokenizer(train_pieces([s for s, _ in texts] + [t for _, t in texts],
                                                                            o.pieces))
        else:
            self.src_pieces = PieceTokenizer(train_pieces([s for s, _ in texts], o.pieces))
            self.tgt_pieces = PieceTokenizer(train_pieces([t for _, t in texts], o.pieces))

    def _tokenizers_of(self, path: str) -> Tuple[List[str], List[str]]:
        """Another model file's SentencePiece tokenizers and vocabularies, unchanged: a comparison model
        (no attention, another size) that reads and writes the same pieces. Returns the vocabularies."""
        loaded = LoadedModel(path)  # the C++ loader's checks (model_file.py)
        described = []
        for tokenizer in (loaded.src_tokenizer, loaded.tgt_tokenizer):
            description = tokenizer.description
            if description.get("kind") != "sentencepiece":
                raise ValueError(f"'{path}' reads words with AlignScope's word tokenizer, not SentencePiece pieces: "
                                 f"--tokenizer-from takes a sub-word model here (alignscope-cli train takes either)")
            described.append(PieceTokenizer.from_description(description))
        self.src_pieces, self.tgt_pieces = described
        return loaded.src_vocab, loaded.tgt_vocab

    def _model_to_continue(self, path: str) -> Tuple[Seq2SeqAttention, List[str], List[str]]:
        """A model file to train on: the eager model with its weights, its vocabularies; its tokenizers
        become this run's, and its own training record is kept for the model written at the end."""
        donor, src_vocab, tgt_vocab, info = load(path)
        self.src_pieces = self.tgt_pieces = None
        kinds = {info["src_tokenizer"].get("kind"), info["tgt_tokenizer"].get("kind")}
        if kinds == {"sentencepiece"}:
            self.src_pieces = PieceTokenizer.from_description(info["src_tokenizer"])
            self.tgt_pieces = PieceTokenizer.from_description(info["tgt_tokenizer"])
        elif info["src_tokenizer"] != DEFAULT_TOKENIZER or info["tgt_tokenizer"] != DEFAULT_TOKENIZER:
            raise ValueError(f"'{path}' reads its text with word-tokenizer settings this trainer does not apply "
                             f"({info['src_tokenizer']}, {info['tgt_tokenizer']}): --init-from takes a sub-word model "
                             f"or one with the default word tokenizer here (alignscope-cli train takes any)")
        meta = info["metadata"]
        self.continued_from = {key: meta[key] for key in ("name", "trained_with", "train_steps", "training", "scores",
                                                          "continued_from") if key in meta}
        self.continued_from["model"] = os.path.basename(path)
        return donor, src_vocab, tgt_vocab

    def _tokenizers(self) -> Dict[str, Any]:
        """The model file's tokenizer descriptions (none: the default word tokenizer)."""
        if self.src_pieces is None or self.tgt_pieces is None:
            return {}
        return {"src_tokenizer": self.src_pieces.description(), "tgt_tokenizer": self.tgt_pieces.description()}

    def _restore(self, ckpt: Dict[str, Any], path: str) -> None:
        self.model.load_state_dict(ckpt["state_dict"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.step, self.epoch, self.batches_done = ckpt["step"], ckpt["epoch"], ckpt["batches_done"]
        self.loss_history = list(ckpt.get("loss_history", []))[:self.step]
        self.continued_from = ckpt.get("continued_from")
        rng = ckpt.get("rng") or []
        if len(rng) == self.dist.world_size:
            _set_rng_state(rng[self.dist.rank], self.device)
        else:  # another number of processes: the data position holds, the dropout streams start anew
            _log(self.dist, f"note: '{path}' was written by {len(rng)} processes, this run has "
                            f"{self.dist.world_size}: dropout noise is reseeded")
        _log(self.dist, f"resumed from '{path}' at step {self.step} (epoch {self.epoch + 1}, "
                        f"batch {self.batches_done} of the epoch)")

    def _checkpoint(self) -> None:
        """All ranks call this (their random states are gathered); rank 0 writes."""
        rng = self.dist.gather(_rng_state(self.device))
        if not self.dist.is_main:
            return
        value = checkpoint_dict(self.model, self.corpus.src_vocab, self.corpus.tgt_vocab, self.options.name,
                                **self._tokenizers())
        value.update({"kind": "alignscope-training-checkpoint", "optimizer": self.optimizer.state_dict(),
                      "rng": rng, "step": self.step, "epoch": self.epoch, "batches_done": self.batches_done,
                      "world_size": self.dist.world_size, "data": self.data_fingerprint, "batching": self.batching,
                      "options": dataclasses.asdict(self.options), "loss_history": self.loss_history,
                      "continued_from": self.continued_from})
        write_training_checkpoint(self.options.checkpoint_dir, self.step, value, self.options.keep_checkpoints)

    def _total_steps(self) -> int:
        """Updates the whole run takes: --steps, or --epochs of this corpus's batches, whichever ends first."""
        o, W = self.options, self.dist.world_size
        totals = []
        if o.steps is not None:
            totals.append(o.steps)
        if o.epochs is not None:
            totals.append(sum(len(self.buckets.epoch(e)) // W for e in range(o.epochs)))
        return min(totals)

    def _snapshot(self) -> None:
        """Writes the model as it is now beside --out and lists it in the run's index (rank 0)."""
        if not self.dist.is_main:
            return
        o = self.options
        path = self.timeline.snapshot_path(self.step)
        was_training = self.model.training
        self.model.eval()
        export(self.model, self.corpus.src_vocab, self.corpus.tgt_vocab, path, name=o.name, check=False,
               metadata=self._metadata(), half=o.half, **self._tokenizers())
        self.model.train(was_training)
        self.timeline.add(self.step, os.path.basename(path), self.recent_loss, self.loss_history)
        _log(self.dist, f"snapshot at update {self.step} written to {path}")

    def _done(self) -> bool:
        o = self.options
        out_of_time = o.max_minutes is not None and time.perf_counter() - self.started > 60.0 * o.max_minutes
        return ((o.steps is not None and self.step >= o.steps) or (o.epochs is not None and self.epoch >= o.epochs)
                or out_of_time)

    def _update(self, indices: List[int]) -> Tensor:
        """One Adam step on this rank's batch; returns [target tokens, nll sum] summed over ranks."""
        o = self.options
        src, src_len, tgt_in, tgt_out = make_batch([self.corpus.pairs[i] for i in indices], self.device)
        guidance = None
        if self.corpus.guides is not None:
            guidance = guidance_tensor([self.corpus.guides[i] or [] for i in indices], tgt_in.size(1), src.size(1),
                                       self.device)
        loss_sum, nll_sum, n, ce_sum = self.net(src, src_len, tgt_in, tgt_out, o.smoothing, guidance,
                                                o.guided_weight if guidance is not None else 0.0)
        guided_rows = guidance.sum(2).gt(0).sum().to(n.dtype) if guidance is not None else torch.zeros_like(n)
        # [4]: all ranks' tokens, nll, guided rows, attention cross-entropy
        totals = self.dist.sum_(torch.stack([n.detach(), nll_sum.detach(), guided_rows, ce_sum.to(n.dtype)]))
        self.optimizer.zero_grad(set_to_none=True)
        # DDP averages gradients over ranks: scaled so that the result is the mean over all tokens.
        (loss_sum * self.dist.world_size / totals[0]).backward()
        if o.clip > 0:
            nn.utils.clip_grad_norm_(self.model.parameters(), o.clip)
        self.optimizer.step()
        return totals

    def _sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def run(self) -> TrainingResult:
        o, dist = self.options, self.dist
        W = dist.world_size
        self.started = time.perf_counter()
        self.model.train()
        run_steps = 0
        tokens = torch.zeros((), dtype=torch.float64, device=self.device)  # all ranks', timed steps
        window = torch.zeros(4, dtype=torch.float64, device=self.device)  # tokens, nll, guided rows, ce since the last log line
        start = window_start = time.perf_counter()
        last_checkpoint = self.step
        snapshot_at = set()
        if o.snapshots > 0:
            self.timeline = TrainingTimeline(o.out)
            self.timeline.keep_up_to(self.step)
            snapshot_at = set(snapshot_steps(o.snapshots, self._total_steps()))
        while not self._done():
            batches = self.buckets.epoch(self.epoch)
            # Every rank takes the same number of steps (DDP needs it): the last len % W batches wait.
            if len(batches) < W:
                raise ValueError(f"the corpus gives {len(batches)} batches an epoch, fewer than the "
                                 f"{W} processes: use smaller batches or fewer processes")
            while self.batches_done + W <= len(batches) and not self._done():
                if run_steps == o.warmup and run_steps > 0:  # timing starts after the warm-up steps
                    self._sync()
                    tokens.zero_()
                    start = time.perf_counter()
                totals = self._update(batches[self.batches_done + dist.rank])
                self.batches_done += W
                self.step += 1
                run_steps += 1
                tokens += totals[0]
                window += totals
                if o.snapshots > 0:
                    n, nll = totals[:2].tolist()
                    loss = nll / max(n, 1)
                    self.loss_history.append(loss)
                    self.recent_loss = loss if run_steps == 1 else 0.98 * self.recent_loss + 0.02 * loss
                    if self.step in snapshot_at:
                        self._snapshot()
                if o.log_every > 0 and (self.step % o.log_every == 0 or self._done()):
                    seconds = time.perf_counter() - window_start
                    n, nll, rows, ce = window.tolist()
                    total = f"/{o.steps}" if o.steps is not None else ""
                    guided = f"  attention ce/guided token {ce / rows:.3f}" if rows > 0 else ""
                    _log(dist, f"step {self.step}{total}  epoch {self.epoch + 1}  nll/token {nll / max(n, 1):.3f}{guided}  "
                               f"{n / seconds if seconds > 0 else 0:.0f} target tokens/s")
                    window.zero_()
                    window_start = time.perf_counter()
                if o.checkpoint_dir and self.step % o.checkpoint_every == 0:
                    self._checkpoint()
                    last_checkpoint = self.step
            if self.batches_done + W > len(batches):  # this epoch's share of every rank is done
                self.epoch += 1
                self.batches_done = 0
        if o.log_every > 0 and window[0].item() > 0:  # a run that ended with its epochs, between log lines
            n, nll = window[:2].tolist()
            _log(dist, f"step {self.step}  epochs {self.epoch}  nll/token {nll / n:.3f}")
        self._sync()
        seconds = time.perf_counter() - start
        timed_steps = run_steps - o.warmup if run_steps > o.warmup else run_steps
        if o.checkpoint_dir and last_checkpoint != self.step:
            self._checkpoint()
        self.model.eval()
        n_tokens = int(tokens.item())
        stats: Dict[str, Any] = {
            "steps": self.step, "run_steps": run_steps, "timed_steps": timed_steps, "epochs_done": self.epoch,
            "batch_size": o.batch_size, "batch_tokens": o.batch_tokens, "target_tokens": n_tokens,
            "seconds": seconds, "target_tokens_per_second": n_tokens / seconds if seconds > 0 else 0.0,
            "world_size": W, "device": str(self.device)}
        if dist.is_main:
            self._write_outputs()
        return TrainingResult(self.model, self.corpus.src_vocab, self.corpus.tgt_vocab, stats)

    def _metadata(self) -> Dict[str, Any]:
        """What the written model files say of their training."""
        meta: Dict[str, Any] = {"trained_with": "python3 -m alignscope train", "train_steps": self.step,
                                "train_world_size": self.dist.world_size}
        for key in ("source_language", "target_language"):
            if getattr(self.options, key):
                meta[key] = getattr(self.options, key)
        if self.continued_from is not None:
            meta["continued_from"] = self.continued_from
        if self.options.guided_alignment:
            meta["guided_alignment"] = {"links": os.path.basename(self.options.guided_alignment),
                                        "links_sha256": self.data_fingerprint["guided_alignment_sha256"],
                                        "weight": self.options.guided_weight}
        return meta

    def _write_outputs(self) -> None:
        o = self.options
        if o.save:
            save_checkpoint(o.save, self.model, self.corpus.src_vocab, self.corpus.tgt_vocab, o.name, **self._tokenizers())
        if o.out:
            export(self.model, self.corpus.src_vocab, self.corpus.tgt_vocab, o.out, name=o.name,
                   metadata=self._metadata(), half=o.half, **self._tokenizers())

    def close(self, finished: bool = True) -> None:
        """Frees DDP before the process group: a Reducer holding the group's last reference destroys it
        with the GIL held, and gloo's threads, which need the GIL to free Python tensors, deadlock."""
        self.net = None
        gc.collect()
        self.dist.close(barrier=finished)


def train(data: str, arch: Optional[Architecture] = None, options: Optional[TrainingOptions] = None,
          **overrides: Any) -> TrainingResult:
    """Trains a Seq2SeqAttention on the `source<TAB>target` file `data`.

    `options` (or keyword overrides of TrainingOptions' fields, e.g. steps=500, out="model.pt") say
    how long, on which device and what to write. Under torchrun every process calls this; rank 0
    writes the checkpoints and files. Returns the model, the vocabularies and the speed (target
    tokens, </s> included and padding not, of the steps after the warm-up, summed over processes).
    """
    o = dataclasses.replace(options or TrainingOptions(), **overrides)
    trainer = Trainer(data, arch, o)
    finished = False
    try:
        result = trainer.run()
        finished = True
        return result
    finally:
        trainer.close(finished)  # after a failure no barrier: the other ranks may be inside a collective
