"""Adapter for the PyTorch tutorial "NLP From Scratch: Translation with a Sequence to Sequence
Network and Attention" (pytorch/tutorials, intermediate_source/seq2seq_translation_tutorial.py,
the batched version with `BahdanauAttention`).

    model = alignscope.from_pytorch_tutorial(encoder, decoder, input_lang, output_lang)
    model.save("fra-eng.pt")

What the tutorial computes, and what the converted module reproduces:
- `EncoderRNN`: embedding -> dropout -> GRU(H, H, batch_first). The tutorial's `evaluate` encodes
  one sentence alone (`tensorFromSentence`: word ids + EOS, no padding), so in a padded batch the
  converted encoder keeps every row's state at its last real token and writes zeros at padding.
- `BahdanauAttention`: scores = Va(tanh(Wa(query) + Ua(keys))) over the encoder outputs, with
  query = the previous decoder state (before the GRU cell); softmax over the source. The tutorial
  has no mask (one sentence, no padding); the converted module gives padding exactly 0.
- `AttnDecoderRNN.forward_step`: input = cat(dropout(embedding(y_prev)), context) -> GRU(2H, H)
  -> out Linear; `forward` applies log_softmax over all V outputs (SOS and EOS included).
- `evaluate`: greedy, MAX_LENGTH decoder steps, cut at the first EOS: `max_length` below.
- `normalizeString`: lower, strip, NFD, drop Mn, " \\1" before [.!?], [^a-zA-Z!?]+ -> " ", strip.
"""

from typing import Any, Dict, List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..adapted import AdaptedModel
from .common import SplitEncoder, eval_mode, frozen_copy, positive_int, submodule, tokenizer_option

SOS_TOKEN = 0
EOS_TOKEN = 1

CONVERTED_FROM = ("PyTorch tutorial 'NLP From Scratch: Translation with a Sequence to Sequence Network "
                  "and Attention' (EncoderRNN, AttnDecoderRNN with BahdanauAttention)")

# normalizeString(s) of the tutorial, as AlignScope normalizers (docs/model-format.md, v2):
#   s = unicodeToAscii(s.lower().strip())      lowercase, strip, nfd, strip_accents
#   s = re.sub(r"([.!?])", r" \1", s)          replace
#   s = re.sub(r"[^a-zA-Z!?]+", r" ", s)       replace
#   return s.strip()                           strip
# then Lang.addSentence / indexesFromSentence split on " " (no empty words after the strip).
TOKENIZER: Dict[str, Any] = {
    "kind": "whitespace",
    "normalizers": [
        {"type": "lowercase"},
        {"type": "strip"},
        {"type": "nfd"},
        {"type": "strip_accents"},
        {"type": "replace", "pattern": "([.!?])", "content": " $1"},
        {"type": "replace", "pattern": "[^a-zA-Z!?]+", "content": " "},
        {"type": "strip"},
    ],
    "detokenizer": "spaces",
}


def _fail(message: str) -> ValueError:
    return ValueError(f"from_pytorch_tutorial: {message}")


class TutorialSeq2Seq(SplitEncoder):
    """EncoderRNN + AttnDecoderRNN of the tutorial as AlignScope's encode/step (format v2)."""

    def __init__(self, src_embedding: nn.Embedding, encoder_gru: nn.GRU, tgt_embedding: nn.Embedding,
                 Wa: nn.Linear, Ua: nn.Linear, Va: nn.Linear, decoder_gru: nn.GRU, out: nn.Linear) -> None:
        super().__init__()
        self.src_embedding = src_embedding
        self.encoder_gru = encoder_gru
        self.tgt_embedding = tgt_embedding
        self.Wa = Wa
        self.Ua = Ua
        self.Va = Va
        self.decoder_gru = decoder_gru
        self.out = out

    # The encoder split at its embeddings (the format's optional methods), so gradient attributions
    # (grad-x-input, integrated gradients) can differentiate with respect to them.
    @torch.jit.export
    def embed_source(self, src: Tensor) -> Tensor:
        return self.src_embedding(src)  # [B,S,H] (dropout: identity at evaluation)

    @torch.jit.export
    def encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        B = x.size(0)
        S = x.size(1)
        src_len = src_len.to(x.device)
        mask = torch.arange(S, device=x.device).unsqueeze(0) < src_len.unsqueeze(1)  # [B,S]
        # The GRU reads left to right, so its outputs at real positions do not depend on the
        # padding after them; the state of a row is its output at its last real token (as if the
        # recurrence held still on the padding).
        outputs, _ = self.encoder_gru(x)  # [B,S,H]
        H = outputs.size(2)
        last = (src_len - 1).clamp(min=0).view(B, 1, 1).expand(B, 1, H)
        state = outputs.gather(1, last).squeeze(1)  # [B,H]
        enc = outputs.masked_fill(torch.logical_not(mask).unsqueeze(2), 0.0)
        keys = self.Ua(enc)  # Ua(keys) of BahdanauAttention, once per sentence
        return enc, state, mask, keys

    @torch.jit.export
    def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        embedded = self.tgt_embedding(y_prev)  # [B,H] (dropout: identity at evaluation)
        # BahdanauAttention(query = hidden.permute(1, 0, 2), keys = encoder_outputs)
        energies = self.Va(torch.tanh(self.Wa(state).unsqueeze(1) + keys)).squeeze(2)  # [B,S]
        alpha = torch.softmax(energies.masked_fill(torch.logical_not(mask), float("-inf")), dim=1)
        context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)  # [B,H]
        input_gru = torch.cat([embedded, context], dim=1).unsqueeze(1)  # [B,1,2H]
        output, hidden = self.decoder_gru(input_gru, state.unsqueeze(0).contiguous())
        logits = self.out(output.squeeze(1))
        out: Dict[str, Tensor] = {
            "log_probs": torch.log_softmax(logits, dim=1),
            "state": hidden.squeeze(0),
            "alpha": alpha,
            "context": context,
            "energies": energies,
            "query": state,
        }
        return out


def _submodule(owner: nn.Module, owner_name: str, name: str, kind: type) -> Any:
    """A layer of the tutorial's modules, by its name there."""
    expected = "EncoderRNN" if owner_name == "encoder" else "AttnDecoderRNN"
    return submodule(owner, name, kind, f"the {owner_name}", f"pass the tutorial's {expected}", fail=_fail)


def _check_gru(gru: nn.GRU, which: str, input_size: int, hidden: int) -> None:
    if gru.num_layers != 1 or gru.bidirectional or not gru.batch_first:
        raise _fail(f"the {which} GRU has num_layers={gru.num_layers}, bidirectional={gru.bidirectional}, "
                    f"batch_first={gru.batch_first}; the tutorial's is one layer, one direction, batch_first=True")
    if gru.input_size != input_size or gru.hidden_size != hidden or not gru.bias:
        raise _fail(f"the {which} GRU is GRU({gru.input_size}, {gru.hidden_size}, bias={gru.bias}); "
                    f"the tutorial's is GRU({input_size}, {hidden}) with biases")


def _vocabulary(lang: Any, which: str, size: int, layer: str) -> List[str]:
    """index2word as a list, checked against the tutorial's Lang and the layer it feeds."""
    index2word = getattr(lang, "index2word", None)
    n_words = getattr(lang, "n_words", None)
    if not isinstance(index2word, dict) or not isinstance(n_words, int):
        raise _fail(f"{which} has no index2word/n_words; pass the tutorial's Lang object")
    missing = [i for i in range(n_words) if i not in index2word]
    if missing or len(index2word) != n_words:
        raise _fail(f"{which}.index2word does not hold exactly the ids 0..{n_words - 1} "
                    f"(missing {missing[:5]}, {len(index2word)} entries); was the Lang changed after training?")
    vocab = [str(index2word[i]) for i in range(n_words)]
    if n_words < 2 or vocab[SOS_TOKEN] != "SOS" or vocab[EOS_TOKEN] != "EOS":
        raise _fail(f"{which}.index2word starts {vocab[:2]}, not ['SOS', 'EOS'] (SOS_token = 0, EOS_token = 1)")
    if n_words != size:
        raise _fail(f"{which} has {n_words} words but the {layer} has {size}; "
                    f"pass the Lang objects that built the model (input_lang for the encoder, "
                    f"output_lang for the decoder; prepareData(..., reverse=True) swaps them), "
                    f"with no words added after the model was made")
    return vocab


def from_pytorch_tutorial(encoder: nn.Module, decoder: nn.Module, input_lang: Any, output_lang: Any,
                          max_length: int = 10, *, name: Optional[str] = None, src_tokenizer: Any = None,
                          tgt_tokenizer: Any = None) -> AdaptedModel:
    """An AlignScope model (format v2) from the tutorial's trained `encoder` (EncoderRNN), `decoder`
    (AttnDecoderRNN) and their `Lang` objects; `max_length` is the tutorial's MAX_LENGTH (the number
    of decoder steps `evaluate` runs). `.save(path)` checks it against the original and writes it.
    src_tokenizer, tgt_tokenizer: how text becomes tokens, a description as the model format's JSON
    (docs/model-format.md, "Tokenizers"); default the tutorial's normalizeString and split(' ')."""
    src_tokenizer = tokenizer_option(src_tokenizer, "src_tokenizer", TOKENIZER, fail=_fail)
    tgt_tokenizer = tokenizer_option(tgt_tokenizer, "tgt_tokenizer", TOKENIZER, fail=_fail)
    max_length = positive_int(max_length, "max_length", "give the tutorial's MAX_LENGTH", fail=_fail)
    if not isinstance(encoder, nn.Module) or not isinstance(decoder, nn.Module):
        raise _fail("encoder and decoder must be the tutorial's EncoderRNN and AttnDecoderRNN modules "
                    f"(got {type(encoder).__name__} and {type(decoder).__name__})")

    src_embedding = _submodule(encoder, "encoder", "embedding", nn.Embedding)
    encoder_gru = _submodule(encoder, "encoder", "gru", nn.GRU)
    tgt_embedding = _submodule(decoder, "decoder", "embedding", nn.Embedding)
    attention = getattr(decoder, "attention", None)
    if not isinstance(attention, nn.Module):
        raise _fail("the decoder has no `attention` module; pass the tutorial's AttnDecoderRNN "
                    "(DecoderRNN, the decoder without attention, is not supported)")
    Wa = _submodule(attention, "attention", "Wa", nn.Linear)
    Ua = _submodule(attention, "attention", "Ua", nn.Linear)
    Va = _submodule(attention, "attention", "Va", nn.Linear)
    decoder_gru = _submodule(decoder, "decoder", "gru", nn.GRU)
    out = _submodule(decoder, "decoder", "out", nn.Linear)
    if not callable(getattr(decoder, "forward_step", None)):
        raise _fail("the decoder has no forward_step method; pass the tutorial's AttnDecoderRNN")

    H = src_embedding.embedding_dim
    _check_gru(encoder_gru, "encoder", H, H)
    _check_gru(decoder_gru, "decoder", 2 * H, H)
    if (tgt_embedding.embedding_dim, Wa.in_features, Wa.out_features, Ua.in_features, Ua.out_features,
            Va.in_features, Va.out_features, out.in_features) != (H, H, H, H, H, H, 1, H):
        raise _fail(f"layer sizes differ from the tutorial's with hidden_size {H}: decoder embedding "
                    f"{tgt_embedding.embedding_dim}, Wa {Wa.in_features}->{Wa.out_features}, "
                    f"Ua {Ua.in_features}->{Ua.out_features}, Va {Va.in_features}->{Va.out_features}, "
                    f"out {out.in_features}->{out.out_features}")

    src_vocab = _vocabulary(input_lang, "input_lang", src_embedding.num_embeddings, "encoder embedding")
    tgt_vocab = _vocabulary(output_lang, "output_lang", out.out_features, "decoder output layer")
    if tgt_embedding.num_embeddings != len(tgt_vocab):
        raise _fail(f"the decoder embedding has {tgt_embedding.num_embeddings} words but its output layer "
                    f"{len(tgt_vocab)}")

    module = TutorialSeq2Seq(frozen_copy(src_embedding), frozen_copy(encoder_gru), frozen_copy(tgt_embedding),
                             frozen_copy(Wa), frozen_copy(Ua), frozen_copy(Va), frozen_copy(decoder_gru),
                             frozen_copy(out))

    def reference(sources: List[List[int]], targets: List[List[int]]) -> List[Tuple[Tensor, Tensor]]:
        """The original modules, teacher-forced, one pair at a time (as `evaluate` runs them)."""
        device = src_embedding.weight.device
        results: List[Tuple[Tensor, Tensor]] = []
        with torch.no_grad(), eval_mode(encoder, decoder):  # as the tutorial's evaluate() runs them
            for src, tgt in zip(sources, targets):
                input_tensor = torch.tensor(src, dtype=torch.long, device=device).view(1, -1)
                encoder_outputs, decoder_hidden = encoder(input_tensor)
                log_probs, alphas = [], []
                for y in tgt:
                    decoder_input = torch.tensor([[y]], dtype=torch.long, device=device)
                    decoder_output, decoder_hidden, attn_weights = decoder.forward_step(
                        decoder_input, decoder_hidden, encoder_outputs)
                    log_probs.append(F.log_softmax(decoder_output, dim=-1).reshape(-1))
                    alphas.append(attn_weights.reshape(-1))
                results.append((torch.stack(log_probs).float().cpu(), torch.stack(alphas).float().cpu()))
        return results

    bias = Wa.bias is not None or Ua.bias is not None
    metadata: Dict[str, Any] = {
        "name": name or f"{getattr(input_lang, 'name', 'source')}-{getattr(output_lang, 'name', 'target')} "
                        f"(PyTorch seq2seq tutorial)",
        "max_length": max_length,
        "source_eos": True,
        "encoder": {"cell": "gru", "layers": 1, "bidirectional": False},
        "decoder": {"cell": "gru", "layers": 1, "input_feeding": False},
        "attention": {"kind": "additive", "bias": bias, "when": "before_cell"},
        "converted_from": CONVERTED_FROM,
    }
    specials = {"bos": SOS_TOKEN, "eos": EOS_TOKEN}
    return AdaptedModel(module, src_vocab=src_vocab, tgt_vocab=tgt_vocab, src_specials=dict(specials),
                        tgt_specials=dict(specials), src_tokenizer=src_tokenizer, tgt_tokenizer=tgt_tokenizer,
                        metadata=metadata, reference=reference)
