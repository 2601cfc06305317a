"""SentencePiece vocabularies for the Python trainer (`train --tokenizer sentencepiece`).

Trained with the settings in sentencepiece_training.json, the file the C++ trainer embeds and
passes to the same SentencePiece library, so both trainers make the same model from one corpus:
cased sub-words, digits split, byte fallback (never <unk>), the four specials at ids 0-3.
"""

import base64
import io
import json
import os
from typing import Any, Dict, Iterable, List

_SETTINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sentencepiece_training.json")


def _sentencepiece() -> Any:
    """The sentencepiece module, imported on first use: it is optional (pyproject's `subwords` extra), so
    `import alignscope` works without it."""
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePiece tokenizers need the sentencepiece module: apt-get install "
                          "python3-sentencepiece, or pip install 'alignscope[subwords]'") from None
    return sentencepiece


def training_settings() -> Dict[str, str]:
    """The SentencePiece trainer settings both trainers use (vocab_size is added per run)."""
    with open(_SETTINGS, encoding="utf-8") as f:
        return dict(json.load(f)["settings"])


def train_pieces(sentences: Iterable[str], vocab_size: int) -> bytes:
    """A serialised SentencePiece .model trained on `sentences` with at most `vocab_size` pieces."""
    model = io.BytesIO()
    _sentencepiece().SentencePieceTrainer.train(sentence_iterator=iter(list(sentences)), model_writer=model,
                                             vocab_size=str(vocab_size), **training_settings())
    return model.getvalue()


def tokenizer_description(model: bytes) -> Dict[str, Any]:
    """The model file's tokenizer description for a SentencePiece model (docs/model-format.md)."""
    return {"kind": "sentencepiece", "model": base64.b64encode(model).decode("ascii")}


class PieceTokenizer:
    """A SentencePiece model as the trainer uses it: text -> piece texts, and its pieces in id order
    (the vocabulary)."""

    def __init__(self, model: bytes) -> None:
        self.model = model
        self.processor = _sentencepiece().SentencePieceProcessor(model_proto=model)

    @staticmethod
    def from_description(description: Dict[str, Any]) -> "PieceTokenizer":
        return PieceTokenizer(base64.b64decode(description["model"]))

    def description(self) -> Dict[str, Any]:
        return tokenizer_description(self.model)

    def pieces(self) -> List[str]:
        return [self.processor.id_to_piece(i) for i in range(self.processor.get_piece_size())]

    def __call__(self, text: str) -> List[str]:
        return self.processor.encode(text, out_type=str)
