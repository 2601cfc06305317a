"""alignscope.adapters.common: the helpers every adapter reads the user's objects with."""

import numpy as np
import pytest
import torch
from torch import nn

from alignscope.adapters.common import eval_mode, frozen_copy, positive_int, special_ids, tokens_by_id


def test_vocabularies_by_id_from_a_list_or_either_dict():
    assert tokens_by_id(["a", "b"], "v", "a list") == ["a", "b"]
    assert tokens_by_id({"b": 1, "a": np.int64(0)}, "v", "a list") == ["a", "b"]
    assert tokens_by_id({1: "b", 0: "a"}, "v", "a list") == ["a", "b"]
    with pytest.raises(ValueError, match=r"src_vocab: the ids must be 0..2, each once "
                                         r"\(missing \[2\]; used twice \[1\]\)"):
        tokens_by_id({"a": 0, "b": 1, "c": 1}, "src_vocab", "a list")
    with pytest.raises(ValueError, match="src_vocab: expected a list of tokens, got int"):
        tokens_by_id(3, "src_vocab", "a list of tokens")
    with pytest.raises(ValueError, match="every token must be a string"):
        tokens_by_id(["a", 1], "src_vocab", "a list")
    with pytest.raises(ValueError, match="src_vocab is empty"):
        tokens_by_id([], "src_vocab", "a list")


def test_special_ids_and_positive_ints():
    assert special_ids(["<pad>", "a", "</s>"], {"pad": "<pad>", "bos": "<s>", "eos": "</s>"}) == \
        {"pad": 0, "bos": None, "eos": 2}
    assert positive_int(np.int32(3), "Tx") == 3 and type(positive_int(np.int32(3), "Tx")) is int
    for bad in (0, True, 2.0, "3", None):
        with pytest.raises(ValueError, match="Tx must be a positive int"):
            positive_int(bad, "Tx")


def test_frozen_copies_compute_the_same_in_float32_on_the_cpu():
    torch.manual_seed(0)
    x = torch.randn(2, 5, 3)  # [B,S,in]
    for layer in (nn.GRU(3, 4, 2, batch_first=True), nn.LSTM(3, 4, bidirectional=True), nn.Linear(3, 2)):
        original = layer.double()
        copy = frozen_copy(original)
        assert type(copy) is type(layer) and all(p.dtype == torch.float32 and not p.requires_grad
                                                 for p in copy.parameters())
        got, want = copy(x), original(x.double())
        got, want = (got[0], want[0]) if isinstance(got, tuple) else (got, want)
        assert (got - want.float()).abs().max().item() < 1e-6
    embedding = nn.Embedding(7, 3, padding_idx=0)
    assert torch.equal(frozen_copy(embedding).weight, embedding.weight.detach())
    with pytest.raises(TypeError):
        frozen_copy(nn.Conv1d(1, 1, 1))


def test_eval_mode_gives_every_submodule_its_mode_back_even_on_error():
    model = nn.Sequential(nn.Dropout(0.5), nn.Linear(2, 2), nn.Dropout(0.5))
    model[2].eval()  # a submodule the user keeps in eval mode
    with pytest.raises(RuntimeError):
        with eval_mode(model):
            assert not any(m.training for m in model.modules())
            raise RuntimeError("the original failed")
    assert [m.training for m in model.modules()] == [True, True, True, False]
