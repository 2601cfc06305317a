"""AlignScope's Python side: the reference model in PyTorch, its export to AlignScope's model file
format and back, a trainer (one process, or several through torchrun), and adapters that turn
other people's trained models into AlignScope files.

    import alignscope
    model = alignscope.Seq2SeqAttention(len(src_vocab), len(tgt_vocab), alignscope.Architecture())
    alignscope.export(model.eval(), src_vocab, tgt_vocab, "model.pt", name="my-model")
    model, src_vocab, tgt_vocab, info = alignscope.load("model.pt")

In a notebook, a decoding as AlignScope's interactive page (the app's steps, candidates and Step
explained; .save("page.html") writes it as one file):

    alignscope.show("model.pt", "The cat sat on the mat.")

Command line: python3 -m alignscope --help. See docs/pytorch-export.md.
"""

from typing import Any, Optional

from .architecture import Architecture
from .checkpoint import load_checkpoint, save_checkpoint
from .export import check_export, export, load
from .reference import Seq2SeqAttention
from .files import FORMAT_VERSION
from .page import Page, show
from .scripted import format_parameter_names, to_script
from .text import BOS, DEFAULT_TOKENIZER, EOS, PAD, SPECIALS, UNK, build_vocab, read_tsv, tokenize
from .training import TrainingOptions, TrainingResult, train

__all__ = [
    "Architecture", "Seq2SeqAttention", "export", "check_export", "load", "save_checkpoint", "load_checkpoint",
    "train", "TrainingOptions", "TrainingResult", "to_script", "format_parameter_names", "FORMAT_VERSION",
    "tokenize", "build_vocab", "read_tsv", "PAD", "UNK", "BOS", "EOS", "SPECIALS", "DEFAULT_TOKENIZER",
    "from_d2l", "from_pytorch_tutorial", "from_keras_h5", "from_opennmt", "show", "Page",
]


# The adapters are imported when first called: the package works without their optional
# dependencies (h5py for Keras files), and each adapter's import cost is paid only by its users.
# Each wrapper keeps its adapter's documented positional arguments and hands the adapter's
# keyword-only options through `**options`: src_tokenizer= and tgt_tokenizer= (how text becomes
# tokens, a description as the model format's JSON) for all; name= but for Keras (the file's name);
# max_length= for OpenNMT-py.

def from_d2l(net: Any, src_vocab: Any, tgt_vocab: Any = None, num_steps: Optional[int] = None,
             **options: Any) -> Any:
    """A d2l.ai Bahdanau-attention EncoderDecoder and its two Vocab objects -> AdaptedModel;
    num_steps is d2l's fixed length (its encoder reads the padding up to it). from_d2l(net, data) takes
    both vocabularies and num_steps from a d2l MTFraEng data module. Options: name=, src_tokenizer=, tgt_tokenizer=."""
    from .adapters.d2l import from_d2l as adapter
    return adapter(net, src_vocab, tgt_vocab, num_steps=num_steps, **options)


def from_pytorch_tutorial(encoder: Any, decoder: Any, input_lang: Any, output_lang: Any, max_length: int = 10,
                          **options: Any) -> Any:
    """The PyTorch seq2seq tutorial's EncoderRNN, AttnDecoderRNN and Lang objects -> AdaptedModel.
    Options: name=, src_tokenizer=, tgt_tokenizer=."""
    from .adapters.pytorch_tutorial import from_pytorch_tutorial as adapter
    return adapter(encoder, decoder, input_lang, output_lang, max_length=max_length, **options)


def from_keras_h5(path: str, src_vocab: Any, tgt_vocab: Any, Tx: Optional[int] = None, Ty: Optional[int] = None,
                  recurrent_activation: str = "sigmoid", **options: Any) -> Any:
    """The Keras attention course's weights (.h5, read with h5py; no TensorFlow) -> AdaptedModel;
    vocabularies are dicts token -> id (characters, or a word-level Keras Tokenizer's words); Tx and Ty
    are the padded input and the output lengths. Options: src_tokenizer=, tgt_tokenizer=, end_token= (the
    target token that ends a translation, as `<pad>` ends targets padded with it)."""
    from .adapters.keras import from_keras_h5 as adapter
    return adapter(path, src_vocab, tgt_vocab, Tx=Tx, Ty=Ty, recurrent_activation=recurrent_activation, **options)


def from_opennmt(checkpoint: Any, **options: Any) -> Any:
    """An OpenNMT-py RNN checkpoint (a path, or the loaded dict) -> AdaptedModel.
    Options: name=, max_length= (default: the checkpoint's translate option, else 100), src_tokenizer=,
    tgt_tokenizer=."""
    from .adapters.opennmt import from_opennmt as adapter
    return adapter(checkpoint, **options)
