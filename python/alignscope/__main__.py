"""python3 -m alignscope: the command line of the package (see --help and docs/pytorch-export.md).

  demo       small random model -> DIR/model.pt and DIR/reference.json (eager outputs, for tests)
  reference  an existing model file's outputs, computed by the eager model (checks AlignScope's math)
  train      train the eager model on a TSV corpus (CPU, CUDA, or several processes under torchrun)
  export     checkpoint (from `train --save`, a training checkpoint or save_checkpoint()) -> model file
  import     AlignScope model file -> checkpoint, to fine-tune a model in PyTorch
  convert    someone else's trained model file (Keras .h5, OpenNMT-py .pt) -> AlignScope model file
  guide      a corpus's word links (fast_align's model) for `train --guided-alignment`
"""

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

import torch

from .architecture import Architecture
from .checkpoint import load_checkpoint, save_checkpoint
from .demo import DEMO_SOURCE, DEMO_TARGET, demo, demo_architecture, eager_reference, write_json
from .export import export, load
from .files import read_text, regular_input
from .training import SHARED_OPTIONS, TrainingOptions, reuse_freed_memory, shared_default, train



def _prog_name() -> str:
    """How the user called this command line, for usage and error lines: the pip-installed entry point
    alignscope-py, or `python3 -m alignscope` (argparse would say __main__.py)."""
    called = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "alignscope-py" if called.startswith("alignscope-py") else "python3 -m alignscope"


PROG = _prog_name()


class InputError(Exception):
    """A file the user named cannot be used (missing, unreadable, not JSON): exit status 2."""


def _add_arch_args(p: argparse.ArgumentParser, small: bool = False) -> None:
    d = demo_architecture() if small else Architecture()
    p.add_argument("--cell", choices=["gru", "lstm"], default=d.cell)
    p.add_argument("--attention", choices=["additive", "dot", "general", "none"], default=d.attention)
    p.add_argument("--unidirectional", action="store_true", help="forward-only encoder")
    p.add_argument("--decoder", choices=["bahdanau", "conditional"], default=d.decoder,
                   help="bahdanau: attention from the state before the previous word is read; conditional: the "
                        "cell reads it first, attention from that state, a second cell reads the context")
    if not small:
        p.add_argument("--embedding-size", type=int, default=d.embedding_size)
        p.add_argument("--encoder-hidden", type=int, default=d.encoder_hidden, help="per direction")
        p.add_argument("--decoder-hidden", type=int, default=d.decoder_hidden)
        p.add_argument("--attention-size", type=int, default=d.attention_size)
        p.add_argument("--readout-size", type=int, default=d.readout_size)
        p.add_argument("--untied", action="store_true", help="own output projection instead of tied embeddings")


def _arch_from_args(a: argparse.Namespace) -> Architecture:
    return Architecture(cell=a.cell, bidirectional=not a.unidirectional, attention=a.attention,
                        embedding_size=a.embedding_size, encoder_hidden=a.encoder_hidden,
                        decoder_hidden=a.decoder_hidden, attention_size=a.attention_size,
                        readout_size=a.readout_size, tie_output=not a.untied, decoder=a.decoder)


def _language_code(code: str) -> str:
    """Two or three lower-case letters, as AlignScope reads them back (Model::sourceLanguage)."""
    if not (2 <= len(code) <= 3 and code.isascii() and code.isalpha() and code.islower()):
        raise argparse.ArgumentTypeError(f"'{code}' is not a language code such as en or de")
    return code


def _read_text(path: str, what: str) -> str:
    """A file the user named, read whole with files.read_text's checks (a regular file of bounded size:
    /dev/zero is refused by name, not read into a MemoryError), or InputError."""
    try:
        return read_text(path, what)
    except (OSError, ValueError) as e:
        raise InputError(str(e)) from None


def _read_lines(path: str, what: str) -> List[str]:
    # "\n" only: a token may hold U+2028 or U+0085, which str.splitlines would split on
    return [line.rstrip("\r") for line in _read_text(path, what).split("\n") if line.rstrip("\r")]


def _existing_file(path: str, what: str) -> str:
    try:
        return regular_input(path, what)
    except (OSError, ValueError) as e:
        raise InputError(str(e)) from None


def _read_json(path: str, what: str) -> Any:
    text = _read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"the {what} '{path}' is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise InputError(f"the {what} '{path}' nests its JSON too deep") from None


def _read_vocab_json(path: str, what: str) -> Any:
    """A vocabulary as JSON: a list of tokens, or an object token -> id (or id -> token)."""
    value = _read_json(path, what)
    if not isinstance(value, (list, dict)) or not value:
        raise InputError(f"the {what} '{path}' must hold a JSON list of tokens or an object token -> id")
    return value


def _add_tokenizer_args(p: argparse.ArgumentParser, default: str) -> None:
    for side in ("src", "tgt"):
        p.add_argument(f"--{side}-tokenizer", metavar="JSON_FILE",
                       help=f"how {'source' if side == 'src' else 'target'} text becomes tokens: a tokenizer description "
                            f"as the model format's JSON (docs/model-format.md, Tokenizers); {default}")


def _tokenizer_options(a: argparse.Namespace) -> Dict[str, Any]:
    return {f"{side}_tokenizer": _read_json(path, f"{side} tokenizer description")
            for side, path in (("src", a.src_tokenizer), ("tgt", a.tgt_tokenizer)) if path}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="PyTorch reference of AlignScope's attention model: training, export to AlignScope's "
                    "model format and back, and conversion of other toolkits' models.",
        epilog="Examples (PYTHONPATH=python from the repository, Debian's /usr/bin/python3):\n"
               "  python3 -m alignscope train --data corpus.tsv --epochs 10 --batch-tokens 4000 "
               "--checkpoint-dir ckpt --out model.pt\n"
               "  torchrun --standalone --nproc_per_node 2 -m alignscope train --data corpus.tsv --device cpu "
               "--steps 1000 --out model.pt\n"
               "  python3 -m alignscope export --checkpoint ckpt/step-00001000.pt --out model.pt --name my-en-fr\n"
               "  alignscope-cli inspect --model model.pt\n"
               "  python3 -m alignscope import --model model.pt --out ckpt.pt\n"
               "  python3 -m alignscope convert keras --h5 model.h5 --src-vocab human.json "
               "--tgt-vocab machine.json -o dates.pt\n"
               "  python3 -m alignscope demo --out /tmp/demo\n"
               "Details: docs/pytorch-export.md",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads (default: PyTorch's)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("demo", help="tiny random model + eager reference outputs (for the parity test)")
    p.add_argument("--out", required=True, help="folder for model.pt and reference.json")
    p.add_argument("--seed", type=int, default=7)
    _add_arch_args(p, small=True)

    p = sub.add_parser("reference", help="an AlignScope model file's outputs computed by the eager model (JSON)")
    p.add_argument("--model", required=True, help="model file, made here or by AlignScope")
    p.add_argument("--out", required=True, help="JSON file to write (same layout as demo's reference.json)")
    p.add_argument("--source", default=DEMO_SOURCE)
    p.add_argument("--target", default=DEMO_TARGET, help="forced target (</s> is appended)")

    p = sub.add_parser("export", help="checkpoint -> AlignScope model file")
    p.add_argument("--checkpoint", required=True, help="file from `train --save`, `train --checkpoint-dir` "
                                                       "or save_checkpoint()")
    p.add_argument("--out", required=True, help="model file to write (.pt)")
    p.add_argument("--name", help="model name shown in AlignScope (default: the checkpoint's)")
    p.add_argument("--src-vocab", help="source tokens, one per line, specials first (default: the checkpoint's)")
    p.add_argument("--tgt-vocab", help="target tokens, one per line, specials first (default: the checkpoint's)")
    p.add_argument("--metadata", default="{}", help="JSON object merged into the model's metadata")
    p.add_argument("--no-check", action="store_true", help="skip comparing the exported code with the eager model")
    p.add_argument("--half", action="store_true", help="store the weights as float16 (half the file; widened on load)")

    p = sub.add_parser("import", help="AlignScope model file -> checkpoint")
    p.add_argument("--model", required=True)
    p.add_argument("--out", required=True)

    p = sub.add_parser("train", help="train the eager model on a TSV corpus; prints target tokens/s",
                       description="Trains on length-bucketed batches with Adam. Under torchrun (WORLD_SIZE > 1) "
                                   "every process takes its share of the batches (DistributedDataParallel: gloo "
                                   "on CPU, NCCL on CUDA) and rank 0 writes checkpoints and files.")
    p.add_argument("--data", required=True, help="source<TAB>target per line")
    p.add_argument("--steps", type=int, help="updates in all (with --epochs: whichever ends first)")
    # The options the C++ trainer shares (training_options.json): flags, defaults and help from there.
    # --epochs and --batch-size apply their defaults only when no other length or batch limit is given.
    for name, option in SHARED_OPTIONS.items():
        given_alone = name in ("epochs", "batch_size")
        default = None if given_alone else shared_default(name)
        p.add_argument(*option["flags"], dest=name, type=int if option["type"] == "int" else float, default=default,
                       help=option["help"] + (f" (default: {shared_default(name)}"
                                              f"{' unless --steps' if name == 'epochs' else ' unless --batch-tokens'})"
                                              if given_alone else " (default: %(default)s)"))
    p.add_argument("--batch-tokens", type=int, help="padded tokens per batch at most (pairs x longest side)")
    p.add_argument("--pool-size", type=int, default=10000, help="pairs shuffled, then sorted by length together")
    p.add_argument("--device", help="cpu, cuda or cuda:N (default: cuda where available)")
    p.add_argument("--warmup", type=int, default=1, help="first steps left out of the timing")
    p.add_argument("--log-every", type=int, default=50, help="progress line on stderr every N steps (0: none)")
    p.add_argument("--checkpoint-dir", help="write training checkpoints (DIR/step-N.pt) here")
    p.add_argument("--checkpoint-every", type=int, default=1000, help="steps between training checkpoints")
    p.add_argument("--keep-checkpoints", type=int, default=3, help="newest training checkpoints kept (0: all)")
    p.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in --checkpoint-dir")
    p.add_argument("--save", help="write a checkpoint here at the end")
    p.add_argument("--out", "--export", dest="out", help="write an AlignScope model file here at the end")
    p.add_argument("--name", default="pytorch-model")
    p.add_argument("--tokenizer", choices=["word", "sentencepiece"], default="word",
                   help="word (lower-cased words) or sentencepiece (cased sub-words trained on --data: digits split, "
                        "byte fallback, never <unk>)")
    p.add_argument("--joint", action="store_true", help="--tokenizer sentencepiece: one model for both sides")
    p.add_argument("--tokenizer-from", metavar="MODEL",
                   help="take this sub-word model file's tokenizers and vocabularies as they are (a comparison model, "
                        "such as one without attention, that reads and writes the same pieces)")
    p.add_argument("--init-from", metavar="MODEL",
                   help="train this AlignScope model file on from where it stands: its weights, architecture, "
                        "vocabularies and tokenizers, with a fresh optimiser (a run whose checkpoints are gone, or more "
                        "training on other data); its training is kept in the new model's metadata (continued_from)")
    p.add_argument("--half", action="store_true",
                   help="model files (--out, snapshots) store float16 weights: half the size, widened on load")
    p.add_argument("--guided-alignment", metavar="LINKS",
                   help="guided alignment: Pharaoh word links, line k for line k of --data (from `guide`); each "
                        "target token's attention is trained toward the source tokens of its word's links")
    p.add_argument("--max-minutes", type=float, help="stop after the update that passes this much training time")
    p.add_argument("--json", action="store_true", help="print the speed as JSON")
    p.add_argument("--source-language", type=_language_code, help="source language code (en), in the model's metadata")
    p.add_argument("--target-language", type=_language_code, help="target language code (de), in the model's metadata")
    _add_arch_args(p)

    p = sub.add_parser("guide", help="align a corpus's words (fast_align's model, on the GPU where there is one) "
                                     "for `train --guided-alignment`, with a share of lines lower-cased and tokenised",
                       description="Writes the corpus again, line for line, a share of its lines in the lower-cased "
                                   "tokenised form of alignment gold sets, and the grow-diag-final-and word links of "
                                   "every line (docs/alignment.md, 'Guided alignment').")
    p.add_argument("--data", required=True, help="source<TAB>target per line")
    p.add_argument("--out-corpus", required=True, help="the corpus to train on (TSV)")
    p.add_argument("--out-links", required=True, help="its word links (Pharaoh, line for line)")
    p.add_argument("--source-language", default="en")
    p.add_argument("--target-language", default="fr")
    p.add_argument("--tokenized-share", type=float, default=0.3,
                   help="share of lines written lower-cased and tokenised (default 0.3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", default="cpu", help="cpu or cuda (the aligner's EM)")
    p.add_argument("--processes", type=int, default=1, help="processes that tokenise")
    p.add_argument("--also", metavar="PAIRS", help="more pairs aligned with the corpus (a gold set's sentences)")
    p.add_argument("--also-out", metavar="PREFIX", help="their links: PREFIX.words.txt and PREFIX.tokens.txt")

    p = sub.add_parser("convert", help="another toolkit's trained model -> AlignScope model file (format v2)",
                       description="Converts a model file, checks the result against the original on a padded "
                                   "batch, and writes it. Exit status 2 when an input file is missing or unreadable.")
    kinds = p.add_subparsers(dest="kind", required=True)
    k = kinds.add_parser("keras", help="the Keras attention course's date translator (.h5)")
    k.add_argument("--h5", required=True, help="Keras model.save or save_weights file")
    k.add_argument("--src-vocab", required=True, help="JSON: human_vocab (object token -> id) or a token list")
    k.add_argument("--tgt-vocab", required=True, help="JSON: machine_vocab (object token -> id) or a token list")
    k.add_argument("--tx", type=int, help="padded input length (the course: 30); read from a model.save file, "
                                          "needed for a save_weights file")
    k.add_argument("--ty", type=int, help="output steps (the course: 10); as --tx")
    k.add_argument("--recurrent-activation", choices=["sigmoid", "hard_sigmoid"], default="sigmoid",
                   help="the LSTMs' gate activation (old Keras: hard_sigmoid)")
    k.add_argument("--end-token", metavar="TOKEN",
                   help="the target token that ends a translation (<pad> for targets padded with it); default: "
                        "</s> or <eos> where the target vocabulary has one, else none (the course's Ty outputs)")
    k.add_argument("-o", "--out", required=True, help="AlignScope model file to write")
    _add_tokenizer_args(k, "default: characters or Keras' words, read from the vocabulary")
    k = kinds.add_parser("opennmt", help="an OpenNMT-py RNN checkpoint (.pt)")
    k.add_argument("--checkpoint", required=True, help="OpenNMT-py model_step_N.pt")
    k.add_argument("-o", "--out", required=True, help="AlignScope model file to write")
    _add_tokenizer_args(k, "default: whitespace, for pre-tokenized text")
    return parser


def _train(a: argparse.Namespace) -> None:
    reuse_freed_memory()
    if a.init_from:
        _existing_file(a.init_from, "model to train on (--init-from)")
    batch_size = a.batch_size if a.batch_size is not None or a.batch_tokens is not None else shared_default("batch_size")
    options = TrainingOptions(
        steps=a.steps, epochs=a.epochs, batch_size=batch_size, batch_tokens=a.batch_tokens, pool_size=a.pool_size,
        lr=a.lr, dropout=a.dropout, smoothing=a.smoothing, clip=a.clip, max_len=a.max_len, min_count=a.min_count,
        max_vocab=a.max_vocab, seed=a.seed, warmup=a.warmup, log_every=a.log_every, device=a.device,
        checkpoint_dir=a.checkpoint_dir, checkpoint_every=a.checkpoint_every, keep_checkpoints=a.keep_checkpoints,
        resume=a.resume, name=a.name, out=a.out, save=a.save, snapshots=a.snapshots, tokenizer=a.tokenizer,
        pieces=a.pieces, joint=a.joint, tokenizer_from=a.tokenizer_from, init_from=a.init_from,
        half=a.half, guided_alignment=a.guided_alignment, guided_weight=a.guided_weight,
        max_minutes=a.max_minutes, source_language=a.source_language, target_language=a.target_language)
    result = train(a.data, _arch_from_args(a), options)
    stats = result.stats
    stats["threads"] = torch.get_num_threads()
    if int(os.environ.get("RANK", "0")) != 0:
        return  # rank 0 speaks for the run
    if a.json:
        print(json.dumps(stats))
    else:
        size = stats["batch_size"] if stats["batch_size"] else f"<= {stats['batch_tokens']} tokens"
        procs = f", {stats['world_size']} processes" if stats["world_size"] > 1 else ""
        print(f"{stats['timed_steps']} timed steps of {size}: {stats['target_tokens']} target tokens in "
              f"{stats['seconds']:.2f} s = {stats['target_tokens_per_second']:.0f} target tokens/s "
              f"({stats['threads']} threads{procs}, {stats['device']})")


def _convert(a: argparse.Namespace) -> None:
    from . import from_keras_h5, from_opennmt  # the package's lazy wrappers: adapters load on first use
    if a.kind == "keras":
        h5 = _existing_file(a.h5, "Keras file")
        src_vocab = _read_vocab_json(a.src_vocab, "source vocabulary")
        tgt_vocab = _read_vocab_json(a.tgt_vocab, "target vocabulary")
        adapted = from_keras_h5(h5, src_vocab, tgt_vocab, Tx=a.tx, Ty=a.ty,
                                recurrent_activation=a.recurrent_activation,
                                **({"end_token": a.end_token} if a.end_token is not None else {}), **_tokenizer_options(a))
    else:
        adapted = from_opennmt(_existing_file(a.checkpoint, "OpenNMT-py checkpoint"), **_tokenizer_options(a))
    adapted.save(a.out)


def main(argv: Optional[List[str]] = None) -> int:
    a = _parser().parse_args(argv)
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    prog = f"{PROG} {a.command}" if a.command == "convert" else PROG
    try:
        if a.command == "demo":
            arch = demo_architecture(a.cell, a.attention, not a.unidirectional, a.decoder)
            demo(a.out, arch, a.seed)
            print(os.path.join(a.out, "model.pt"))
        elif a.command == "reference":
            model, src_vocab, tgt_vocab, info = load(a.model)
            write_json(a.out, eager_reference(model, src_vocab, tgt_vocab, a.source, a.target,
                                              info["src_tokenizer"], info["tgt_tokenizer"]))
            print(a.out)
        elif a.command == "export":
            model, ckpt = load_checkpoint(a.checkpoint)
            src_vocab = _read_lines(a.src_vocab, "source vocabulary") if a.src_vocab else ckpt.get("src_vocab")
            tgt_vocab = _read_lines(a.tgt_vocab, "target vocabulary") if a.tgt_vocab else ckpt.get("tgt_vocab")
            if src_vocab is None or tgt_vocab is None:
                raise ValueError("the checkpoint holds no vocabularies: give --src-vocab and --tgt-vocab")
            try:
                extra = json.loads(a.metadata)
            except (json.JSONDecodeError, RecursionError):
                raise ValueError("--metadata must be a JSON object") from None
            if not isinstance(extra, dict):
                raise ValueError("--metadata must be a JSON object")
            export(model.eval(), src_vocab, tgt_vocab, a.out, name=a.name or ckpt.get("name", "pytorch-model"),
                   metadata=extra, src_tokenizer=ckpt.get("src_tokenizer"), tgt_tokenizer=ckpt.get("tgt_tokenizer"),
                   check=not a.no_check, half=a.half)
            print(a.out)
        elif a.command == "import":
            model, src_vocab, tgt_vocab, info = load(a.model)
            save_checkpoint(a.out, model, src_vocab, tgt_vocab, info["metadata"].get("name", "imported"),
                            info["src_tokenizer"], info["tgt_tokenizer"])
            print(a.out)
        elif a.command == "train":
            _train(a)
        elif a.command == "guide":
            from .guidance_corpus import prepare_guidance
            prepare_guidance(_existing_file(a.data, "corpus"), a.out_corpus, a.out_links, a.source_language,
                             a.target_language, a.tokenized_share, a.seed, a.device, a.processes,
                             _existing_file(a.also, "pairs to align (--also)") if a.also else None, a.also_out)
        elif a.command == "convert":
            _convert(a)
            print(a.out)
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except (ValueError, OSError, RuntimeError, KeyError, ImportError, TypeError, MemoryError) as e:
        # the whole message: a TorchScript error names its cause on its last lines
        message = str(e).strip() or type(e).__name__
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 1
    except Exception as e:  # a line, not a traceback; ALIGNSCOPE_TRACEBACK=1 shows where, for a bug report
        if os.environ.get("ALIGNSCOPE_TRACEBACK"):
            raise
        print(f"{prog}: error: {type(e).__name__}: {str(e).strip()} (an AlignScope bug: ALIGNSCOPE_TRACEBACK=1 shows "
              "where)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
