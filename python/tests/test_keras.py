"""from_keras_h5: the deeplearning.ai course's date translator (Keras 2), re-typed here in PyTorch with
Keras's semantics and weight layouts, trained briefly, written as Keras 2 `save_weights` HDF5 files,
converted, and compared with the re-typed original in Python and through alignscope-cli."""

import copy
import datetime
import json
import random
from typing import Any, Dict, List, Sequence, Tuple

import pytest
import torch
from torch import Tensor, nn

h5py = pytest.importorskip("h5py")
np = pytest.importorskip("numpy")

from alignscope.adapters.keras import from_keras_h5  # noqa: E402

torch.set_num_threads(1)

TX, TY = 30, 10
N_A, N_S = 32, 64  # the course's sizes (2 n_a == n_s: the post-attention LSTM's two kernels tie in shape)
TOL = 1e-5

# -------------------------------------------------------------------------------------------------
# Dates, as the course's faker/babel formats write them (raw: capitals and commas as people type)

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FORMATS = [
    lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",                               # 3 May 1979
    lambda d: f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day} {d.year}",               # Tuesday, March 7 1983
    lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",                                   # March 7, 1983
    lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",                                        # 07.03.1983
    lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",                                    # 7 March 1983
    lambda d: f"{d.month}/{d.day}/{d.year}",                                                # 3/7/1983
    lambda d: f"{DAYS[d.weekday()][:3]} {d.day} {MONTHS[d.month - 1][:3]} {d.year}",        # Mon 7 Mar 1983
]


def random_date(rng: random.Random) -> Tuple[str, str]:
    d = datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(365 * 80))
    return rng.choice(FORMATS)(d), d.isoformat()


def course_text(raw: str) -> str:
    """string_to_int's normalisation: lower-case, commas removed."""
    return raw.lower().replace(",", "")


def string_to_int(raw: str, length: int, vocab: Dict[str, int]) -> List[int]:
    """The course's string_to_int (unknown characters -> '<unk>'s id)."""
    s = course_text(raw)[:length]
    return [vocab.get(ch, vocab["<unk>"]) for ch in s] + [vocab["<pad>"]] * (length - len(s))


def one_hot(ids: Sequence[Sequence[int]], n: int, dtype=torch.float32) -> Tensor:
    return torch.nn.functional.one_hot(torch.tensor(ids), n).to(dtype)


# -------------------------------------------------------------------------------------------------
# The course model, re-typed with Keras 2 semantics and Keras weight layouts


class KerasLSTM(nn.Module):
    """keras.layers.LSTM's weights: kernel [in, 4u], recurrent_kernel [u, 4u], bias [4u]; gates i, f, c, o."""

    def __init__(self, input_dim: int, units: int, g: torch.Generator) -> None:
        super().__init__()
        self.units = units
        lim = (6.0 / (input_dim + 4 * units)) ** 0.5
        self.kernel = nn.Parameter((torch.rand(input_dim, 4 * units, generator=g) * 2 - 1) * lim)
        q, _ = torch.linalg.qr(torch.randn(4 * units, units, generator=g))
        self.recurrent_kernel = nn.Parameter(q.t().contiguous())
        bias = torch.zeros(4 * units)
        bias[units:2 * units] = 1.0  # unit_forget_bias
        self.bias = nn.Parameter(bias)

    def cell(self, x: Tensor, h: Tensor, c: Tensor, recurrent_activation: str) -> Tuple[Tensor, Tensor]:
        act = torch.sigmoid if recurrent_activation == "sigmoid" else (lambda v: torch.clamp(0.2 * v + 0.5, 0.0, 1.0))
        z = x @ self.kernel + h @ self.recurrent_kernel + self.bias
        u = self.units
        i, f, cc, o = act(z[:, :u]), act(z[:, u:2 * u]), torch.tanh(z[:, 2 * u:3 * u]), act(z[:, 3 * u:])
        c = f * c + i * cc
        return o * torch.tanh(c), c


class KerasDense(nn.Module):
    """keras.layers.Dense's weights: kernel [in, out], bias [out]; x @ kernel + bias."""

    def __init__(self, n_in: int, n_out: int, g: torch.Generator) -> None:
        super().__init__()
        lim = (6.0 / (n_in + n_out)) ** 0.5
        self.kernel = nn.Parameter((torch.rand(n_in, n_out, generator=g) * 2 - 1) * lim)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x: Tensor) -> Tensor:
        return x @ self.kernel + self.bias


class CourseModel(nn.Module):
    """model(Tx, Ty, n_a, n_s, human_vocab_size, machine_vocab_size) of the assignment."""

    def __init__(self, n_x: int, n_y: int, seed: int = 0) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.forward_lstm = KerasLSTM(n_x, N_A, g)   # Bidirectional(LSTM(n_a, return_sequences=True))
        self.backward_lstm = KerasLSTM(n_x, N_A, g)
        self.densor1 = KerasDense(2 * N_A + N_S, 10, g)   # Dense(10, activation="tanh")
        self.densor2 = KerasDense(10, 1, g)               # Dense(1, activation="relu")
        self.post_activation_LSTM_cell = KerasLSTM(2 * N_A, N_S, g)   # LSTM(n_s, return_state=True)
        self.output_layer = KerasDense(N_S, n_y, g)       # Dense(len(machine_vocab), activation=softmax)

    def forward(self, X: Tensor, recurrent_activation: str = "sigmoid") -> Tuple[Tensor, Tensor]:
        """X: one-hot [m, Tx, n_x] -> (logits [m, Ty, n_y] (the output Dense before its softmax), alphas [m, Ty, Tx])."""
        m, Tx, _ = X.shape
        h = c = X.new_zeros(m, N_A)
        fwd = []
        for t in range(Tx):
            h, c = self.forward_lstm.cell(X[:, t], h, c, recurrent_activation)
            fwd.append(h)
        h = c = X.new_zeros(m, N_A)
        bwd = []
        for t in reversed(range(Tx)):  # go_backwards over the whole padded input; outputs reversed back
            h, c = self.backward_lstm.cell(X[:, t], h, c, recurrent_activation)
            bwd.append(h)
        a = torch.cat([torch.stack(fwd, 1), torch.stack(bwd[::-1], 1)], 2)
        s = c = X.new_zeros(m, N_S)  # s0, c0
        logits, alphas = [], []
        for _ in range(TY):
            concat = torch.cat([a, s.unsqueeze(1).repeat(1, Tx, 1)], -1)        # Concatenate([a, RepeatVector(s)])
            energies = torch.relu(self.densor2(torch.tanh(self.densor1(concat))))  # [m, Tx, 1]
            alpha = torch.softmax(energies, dim=1)                             # softmax(axis=1), no mask
            context = (alpha * a).sum(1)                                       # Dot(axes=1)
            s, c = self.post_activation_LSTM_cell.cell(context, s, c, recurrent_activation)
            logits.append(self.output_layer(s))
            alphas.append(alpha[:, :, 0])
        return torch.stack(logits, 1), torch.stack(alphas, 1)


# -------------------------------------------------------------------------------------------------
# Keras 2 save_weights files


def keras_layers(model: CourseModel, style: str):
    """(layer names in file order, {layer: [(weight name, array)]}) as Keras 2 writes them."""
    f, b, p = model.forward_lstm, model.backward_lstm, model.post_activation_LSTM_cell

    def arr(t: Tensor) -> "np.ndarray":
        return t.detach().to(torch.float32).numpy().copy()

    def lstm(prefix: str, l: KerasLSTM):
        return [(f"{prefix}kernel:0", arr(l.kernel)), (f"{prefix}recurrent_kernel:0", arr(l.recurrent_kernel)),
                (f"{prefix}bias:0", arr(l.bias))]

    def dense(prefix: str, d: KerasDense):
        return [(f"{prefix}kernel:0", arr(d.kernel)), (f"{prefix}bias:0", arr(d.bias))]

    if style == "keras-2.0":  # the course's own names (standalone Keras 2.0.x)
        weights = {"bidirectional_1": lstm("bidirectional_1/forward_lstm_1/", f) + lstm("bidirectional_1/backward_lstm_1/", b),
                   "dense_1": dense("dense_1/", model.densor1), "dense_2": dense("dense_2/", model.densor2),
                   "lstm_1": lstm("lstm_1/", p), "dense_3": dense("dense_3/", model.output_layer)}
        order = ["input_1", "s0", "bidirectional_1", "repeat_vector_1", "concatenate_1", "dense_1", "dense_2",
                 "attention_weights", "dot_1", "c0", "lstm_1", "dense_3"]
    elif style == "tf2":  # tf.keras 2.x names
        weights = {"bidirectional": lstm("bidirectional/forward_lstm/lstm_cell/", f)
                   + lstm("bidirectional/backward_lstm/lstm_cell/", b),
                   "dense": dense("dense/", model.densor1), "dense_1": dense("dense_1/", model.densor2),
                   "lstm": lstm("lstm/lstm_cell/", p), "dense_2": dense("dense_2/", model.output_layer)}
        order = ["input_1", "s0", "c0", "dense_2", "bidirectional", "repeat_vector", "concatenate", "dense",
                 "dense_1", "attention_weights", "dot", "lstm"]  # the output layer first: found by shape, not order
    else:  # names without hints: forward/backward and kernel/recurrent_kernel told apart by order only
        def plain(prefix, ws):
            return [(f"{prefix}/v{i}:0", a) for i, (_, a) in enumerate(ws)]
        weights = {"enc": plain("enc", lstm("", f) + lstm("", b)), "att_a": plain("att_a", dense("", model.densor1)),
                   "att_b": plain("att_b", dense("", model.densor2)), "dec": plain("dec", lstm("", p)),
                   "readout": plain("readout", dense("", model.output_layer))}
        order = ["x", "enc", "att_a", "att_b", "dec", "readout"]
    return order, weights


def write_keras_h5(path: str, model: CourseModel, style: str, keras_version: str, model_config=None) -> None:
    order, weights = keras_layers(model, style)
    with h5py.File(path, "w") as f:
        root = f
        if model_config is not None:  # model.save("x.h5"): weights under model_weights, the config at the root
            f.attrs["model_config"] = json.dumps(model_config).encode("utf8")
            root = f.create_group("model_weights")
        root.attrs["layer_names"] = np.array([n.encode("utf8") for n in order])
        root.attrs["backend"] = b"tensorflow"
        root.attrs["keras_version"] = keras_version.encode("utf8")
        for name in order:
            g = root.create_group(name)
            ws = weights.get(name, [])
            g.attrs["weight_names"] = np.array([n.encode("utf8") for n, _ in ws]) if ws else np.array([])
            for n, a in ws:
                g.create_dataset(n, data=a)


# -------------------------------------------------------------------------------------------------
# Fixtures: data, a trained model, converted files


def _written_and_converted(tmp_path_factory, folder_name: str, h5_stem: str, pt_stem: str, model, human_vocab,
                           machine_vocab, keras_format: str, keras_version: str) -> Dict[str, Any]:
    """The model written as a Keras .h5 of that format and converted: what the fixtures hand the tests."""
    folder = tmp_path_factory.mktemp(folder_name)
    h5 = str(folder / f"{h5_stem}.h5")
    write_keras_h5(h5, model, keras_format, keras_version)
    pt = str(folder / f"{pt_stem}.pt")
    from_keras_h5(h5, human_vocab, machine_vocab, Tx=TX, Ty=TY).save(pt)
    return {"model": model, "human_vocab": human_vocab, "machine_vocab": machine_vocab, "h5": h5, "pt": pt,
            "folder": folder, "inv": {i: token for token, i in machine_vocab.items()}}

@pytest.fixture(scope="module")
def course(tmp_path_factory):
    rng = random.Random(7)
    pairs = [random_date(rng) for _ in range(600)]
    human = sorted(set("".join(course_text(h) for h, _ in pairs)))
    machine = sorted(set("".join(m for _, m in pairs)))
    human_vocab = {ch: i for i, ch in enumerate(human + ["<unk>", "<pad>"])}
    machine_vocab = {ch: i for i, ch in enumerate(machine)}
    X = one_hot([string_to_int(h, TX, human_vocab) for h, _ in pairs], len(human_vocab))
    Y = torch.tensor([[machine_vocab[ch] for ch in m] for _, m in pairs])

    model = CourseModel(len(human_vocab), len(machine_vocab))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(0)
    for _ in range(220):
        idx = torch.randint(0, len(pairs), (48,), generator=g)
        logits, _ = model(X[idx])
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), Y[idx].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits, _ = model(X[:200])
    accuracy = (logits.argmax(-1) == Y[:200]).float().mean().item()

    converted = _written_and_converted(tmp_path_factory, "keras", "course-weights", "dates", model, human_vocab,
                                       machine_vocab, "keras-2.0", "2.4.0")
    return {**converted, "accuracy": accuracy}


USER_DATES = ["3 May 1979", "Tuesday, March 7 1983", "March 7, 1983", "07.03.1983", "21 August 2016",
              "Sat 9 May 2018", "12/25/1999", "1 March 2001", "Friday, December 31 1999", "June 30, 2010",
              "15 Jan 1952", "Wed 10 Jul 2007", "2/29/2000", "31.10.1968", "4 july 1976",
              "SUNDAY, APRIL 1 1990", "September 9, 1999", "3 Sep 2021", "11.11.1111", "3 May 1979 (Thu)"]


def original(model: CourseModel, raw: Sequence[str], vocab: Dict[str, int], recurrent_activation="sigmoid"):
    """The re-typed original in float64: (log-probs [n, Ty, V], alphas [n, Ty, Tx], predictions)."""
    X = one_hot([string_to_int(r, TX, vocab) for r in raw], len(vocab), torch.float64)
    with torch.no_grad():
        logits, alphas = copy.deepcopy(model).double()(X, recurrent_activation)
    log_probs = torch.log(torch.softmax(logits, -1))  # log of the softmax output, as Keras gives it
    return log_probs, alphas, logits.argmax(-1)


def course_ids(raw: str, vocab: Dict[str, int]) -> List[int]:
    """The source ids AlignScope feeds `encode`: the course's characters without the padding."""
    return [vocab.get(ch, vocab["<unk>"]) for ch in course_text(raw)]


def run_scripted(path: str, sources: List[List[int]], steps: int, pad: int):
    m = torch.jit.load(path)
    B, S = len(sources), max(map(len, sources))
    src = torch.full((B, S), pad, dtype=torch.long)
    for b, s in enumerate(sources):
        src[b, : len(s)] = torch.tensor(s)
    src_len = torch.tensor([len(s) for s in sources])
    outs = []
    with torch.no_grad():
        enc, state, mask, keys = m.encode(src, src_len)
        for _ in range(steps):
            out = m.step(torch.zeros(B, dtype=torch.long), state, enc, keys, mask)
            state = out["state"]
            outs.append(out)
    return m, enc, outs


def check_against_original(path, model, vocab, raw, recurrent_activation="sigmoid"):
    sources = [course_ids(r, vocab) for r in raw]
    lp_ref, alpha_ref, _ = original(model, raw, vocab, recurrent_activation)
    _, enc, outs = run_scripted(path, sources, TY, vocab["<pad>"])
    for t, out in enumerate(outs):
        for b, src in enumerate(sources):
            n = len(src)
            assert (out["log_probs"][b].double() - lp_ref[b, t]).abs().max().item() < TOL
            assert (out["alpha"][b, :n].double() - alpha_ref[b, t, :n]).abs().max().item() < TOL
            assert torch.all(out["alpha"][b, n:] == 0)
            assert abs(out["alpha_padding"][b].item() - alpha_ref[b, t, n:].sum().item()) < TOL
            assert abs(out["alpha"][b].sum().item() + out["alpha_padding"][b].item() - 1.0) < 1e-5
    for b, src in enumerate(sources):
        assert torch.all(enc[b, len(src):] == 0)
    return max(out["alpha_padding"].max().item() for out in outs)


# -------------------------------------------------------------------------------------------------
# (a) Python


def test_trained(course):
    assert course["accuracy"] > 0.5, f"the re-typed course model did not learn (character accuracy {course['accuracy']:.2f})"


def test_file_declares_the_course_model(course):
    m = torch.jit.load(course["pt"])
    hv, mv = course["human_vocab"], course["machine_vocab"]
    assert m.format_version == 2
    assert list(m.src_vocab) == sorted(hv, key=hv.get)
    assert list(m.tgt_vocab) == sorted(mv, key=mv.get)
    assert json.loads(m.src_specials) == {"pad": hv["<pad>"], "unk": hv["<unk>"]}
    assert json.loads(m.tgt_specials) == {}
    src_tok = json.loads(m.src_tokenizer)
    assert src_tok["kind"] == "char" and src_tok["keep_spaces"] is True
    assert src_tok["normalizers"] == [{"type": "lowercase"}, {"type": "replace", "pattern": ",", "content": ""}]
    assert json.loads(m.tgt_tokenizer) == {"kind": "char", "detokenizer": "concat"}
    meta = json.loads(m.metadata)
    assert meta["max_length"] == TY and meta["max_source_length"] == TX
    assert meta["source_eos"] is False and meta["attends_padding"] is True
    assert meta["attention"] == {"kind": "mlp", "bias": True, "when": "before_cell"}
    assert meta["encoder"] == {"cell": "lstm", "layers": 1, "bidirectional": True}
    assert meta["decoder"] == {"cell": "lstm", "layers": 1, "input_feeding": False}
    assert meta["keras"]["layers"] == {"encoder": "bidirectional_1", "post_attention_lstm": "lstm_1",
                                       "attention_dense_1": "dense_1", "attention_dense_2": "dense_2",
                                       "output_dense": "dense_3"}
    assert "converted_from" in meta


def test_matches_the_original(course):
    raw = ["3 May 1979", "Tuesday, March 7 1983", "12/25/1999", "SUNDAY, APRIL 1 1990", "3 May 1979 (Thu)", "1/1/1950"]
    padding_mass = check_against_original(course["pt"], course["model"], course["human_vocab"], raw)
    assert padding_mass > 0.05  # the trained model does attend its padding: alpha_padding is tested for real


def test_padded_batch_equals_sentences_alone(course):
    hv = course["human_vocab"]
    raw = ["3 May 1979", "Tuesday, March 7 1983", "7/3/83"]
    sources = [course_ids(r, hv) for r in raw]
    _, _, batch = run_scripted(course["pt"], sources, 3, hv["<pad>"])
    for b, src in enumerate(sources):
        _, _, alone = run_scripted(course["pt"], [src], 3, hv["<pad>"])
        for t in range(3):
            for key in ("log_probs", "alpha_padding", "state", "context"):
                assert torch.allclose(batch[t][key][b], alone[t][key][0], atol=1e-6), key
            assert torch.allclose(batch[t]["alpha"][b, : len(src)], alone[t]["alpha"][0], atol=1e-6)


def test_whatever_the_batch_holds_on_padding(course):
    """Positions >= src_len count as '<pad>' whatever id they hold (the module pads to Tx itself)."""
    hv = course["human_vocab"]
    m = torch.jit.load(course["pt"])
    src = torch.tensor([course_ids("3 May 1979", hv) + [hv["1"]] * 5])
    with torch.no_grad():
        enc, state, mask, keys = m.encode(src, torch.tensor([10]))
        a = m.step(torch.zeros(1, dtype=torch.long), state, enc, keys, mask)
        enc2, state2, mask2, keys2 = m.encode(src[:, :10], torch.tensor([10]))
        b = m.step(torch.zeros(1, dtype=torch.long), state2, enc2, keys2, mask2)
    assert torch.equal(a["log_probs"], b["log_probs"])
    assert torch.equal(a["alpha"][:, :10], b["alpha"]) and a["alpha"][:, 10:].abs().max().item() == 0.0


def test_source_longer_than_tx_is_refused(course):
    m = torch.jit.load(course["pt"])
    with pytest.raises(Exception, match="at most 30"):
        m.encode(torch.zeros(1, TX + 1, dtype=torch.long), torch.tensor([TX + 1]))


def test_tf2_names_and_hard_sigmoid(course):
    """tf.keras 2 weight names, another layer order, and the hard_sigmoid gates of Keras < 2.3."""
    h5 = str(course["folder"] / "tf2.h5")
    write_keras_h5(h5, course["model"], "tf2", "2.1.6")
    pt = str(course["folder"] / "tf2-hard.pt")
    from_keras_h5(h5, course["human_vocab"], course["machine_vocab"], Tx=TX, Ty=TY,
                  recurrent_activation="hard_sigmoid").save(pt)
    check_against_original(pt, course["model"], course["human_vocab"], ["3 May 1979", "Mon 7 Mar 1983", "5/3/1999"],
                           "hard_sigmoid")
    with pytest.warns(UserWarning, match="hard_sigmoid"):  # Keras 2.1.6 defaulted to hard_sigmoid
        from_keras_h5(h5, course["human_vocab"], course["machine_vocab"], Tx=TX, Ty=TY)


def test_whole_model_file_without_name_hints(course):
    """model.save("x.h5"): weights under model_weights; Tx and Ty read from the model config. Weight
    names without 'forward'/'recurrent' hints: the file's order decides (Keras writes forward first,
    kernel before recurrent_kernel)."""
    hv, mv = course["human_vocab"], course["machine_vocab"]
    config = {"class_name": "Model", "config": {
        "layers": [{"class_name": "InputLayer", "config": {"batch_input_shape": [None, TX, len(hv)], "name": "x"}},
                   {"class_name": "InputLayer", "config": {"batch_input_shape": [None, N_S], "name": "s0"}},
                   {"class_name": "Bidirectional", "config": {"layer": {"class_name": "LSTM", "config": {
                       "activation": "tanh", "recurrent_activation": "sigmoid"}}}},
                   {"class_name": "LSTM", "config": {"activation": "tanh", "recurrent_activation": "sigmoid"}}],
        "output_layers": [["dense_3", k, 0] for k in range(TY)]}}
    h5 = str(course["folder"] / "whole.h5")
    write_keras_h5(h5, course["model"], "plain", "2.4.0", model_config=config)
    adapted = from_keras_h5(h5, hv, mv)
    assert adapted.metadata["max_source_length"] == TX and adapted.metadata["max_length"] == TY
    pt = str(course["folder"] / "whole.pt")
    adapted.save(pt)
    check_against_original(pt, course["model"], hv, ["3 May 1979", "March 7, 1983"])
    with pytest.raises(ValueError, match="Tx=20 but the model saved in .* was built with Tx=30"):
        from_keras_h5(h5, hv, mv, Tx=20)
    with pytest.raises(ValueError, match="pass recurrent_activation='sigmoid'"):
        from_keras_h5(h5, hv, mv, recurrent_activation="hard_sigmoid")


def test_errors(course, tmp_path):
    hv, mv, h5 = course["human_vocab"], course["machine_vocab"], course["h5"]
    with pytest.raises(ValueError, match="pass Tx and Ty"):
        from_keras_h5(h5, hv, mv)
    with pytest.raises(ValueError, match="pass Ty"):
        from_keras_h5(h5, hv, mv, Tx=TX)
    with pytest.raises(ValueError, match="Tx must be a positive int"):
        from_keras_h5(h5, hv, mv, Tx=0, Ty=TY)
    with pytest.raises(ValueError, match="recurrent_activation must be"):
        from_keras_h5(h5, hv, mv, Tx=TX, Ty=TY, recurrent_activation="relu")
    smaller = {k: i for i, k in enumerate(k for k in sorted(hv, key=hv.get) if k != "/")}
    with pytest.raises(ValueError, match=f"source vocabulary has {len(smaller)} tokens .* reads {len(hv)}-dimensional"):
        from_keras_h5(h5, smaller, mv, Tx=TX, Ty=TY)
    with pytest.raises(ValueError, match=f"target vocabulary has {len(mv) + 1} tokens .* output layer .* has {len(mv)} units"):
        from_keras_h5(h5, hv, {**mv, "x": len(mv)}, Tx=TX, Ty=TY)
    with pytest.raises(ValueError, match="no '<pad>'"):
        from_keras_h5(h5, {k: v for k, v in hv.items() if k != "<pad>"}, mv, Tx=TX, Ty=TY)
    with pytest.raises(ValueError, match="ids must be 0"):
        from_keras_h5(h5, {**hv, "<pad>": len(hv) + 3}, mv, Tx=TX, Ty=TY)
    # inv_machine_vocab (id -> token) is read the same as machine_vocab
    adapted = from_keras_h5(h5, hv, {i: ch for ch, i in mv.items()}, Tx=TX, Ty=TY)
    assert adapted.tgt_vocab == sorted(mv, key=mv.get)
    not_keras = str(tmp_path / "x.h5")
    with h5py.File(not_keras, "w") as f:
        f.create_dataset("x", data=np.zeros(3))
    with pytest.raises(ValueError, match="not a Keras 2 weights file"):
        from_keras_h5(not_keras, hv, mv, Tx=TX, Ty=TY)
    text = tmp_path / "x.txt"
    text.write_text("hello")
    with pytest.raises(ValueError, match="is not an HDF5 file"):
        from_keras_h5(str(text), hv, mv, Tx=TX, Ty=TY)
    with pytest.raises(FileNotFoundError):
        from_keras_h5(str(tmp_path / "missing.h5"), hv, mv, Tx=TX, Ty=TY)


# -------------------------------------------------------------------------------------------------
# (b) alignscope-cli


def test_cli_inspect(course, run_cli):
    run_cli("inspect", "--model", course["pt"])


def test_cli_translate_matches_the_original(course, run_cli, tmp_path):
    lp, _, predictions = original(course["model"], USER_DATES, course["human_vocab"])
    top2 = lp.topk(2, -1).values
    assert (top2[..., 0] - top2[..., 1]).min().item() > 1e-3, "a near tie: the greedy choice is not well defined"
    expected = ["".join(course["inv"][int(i)] for i in row) for row in predictions]
    src = tmp_path / "in.txt"
    out = tmp_path / "out.txt"
    src.write_text("\n".join(USER_DATES) + "\n", encoding="utf8")
    run_cli("translate", "--model", course["pt"], "-i", src, "-o", out)
    got = out.read_text(encoding="utf8").splitlines()
    assert got == expected


def test_cli_gradient_attributions_work_on_the_adapted_model(course, run_cli, gradient_attributions_work, tmp_path):
    dates = USER_DATES[:2]
    (tmp_path / "dates.txt").write_text("\n".join(dates) + "\n", encoding="utf8")
    run_cli("translate", "--model", course["pt"], "-i", tmp_path / "dates.txt", "-o", tmp_path / "iso.txt")
    iso = (tmp_path / "iso.txt").read_text(encoding="utf8").splitlines()
    gradient_attributions_work(course["pt"], list(zip(dates, iso)), tmp_path)


def test_cli_beam_search_keeps_the_padding_column(course, run_cli, tmp_path):
    """This model's softmax covers its padding: beam hypotheses keep that column, batched or not."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(USER_DATES[:6]) + "\n", encoding="utf8")
    one, batched = tmp_path / "beam1.txt", tmp_path / "beam4.txt"
    run_cli("translate", "--model", course["pt"], "--beam", "3", "--batch", "1", "-i", src, "-o", one)
    run_cli("translate", "--model", course["pt"], "--beam", "3", "--batch", "4", "-i", src, "-o", batched)
    assert one.read_text(encoding="utf8") == batched.read_text(encoding="utf8")
    if run_cli("export", "--help", check=False).returncode != 0:
        return  # a build without the GUI has no export
    run_cli("export", "--model", course["pt"], "--format", "json", "--beam", "3", "--out", tmp_path / "json", "-i", src)
    files = sorted((tmp_path / "json").glob("*.json"))
    assert len(files) == 6
    for f in files:
        j = json.loads(f.read_text(encoding="utf8"))
        assert j["source_tokens"][-1] == "<padding>"
        assert all(len(row) == len(j["source_tokens"]) for row in j["alpha"])


def test_cli_trace_matches_the_original(course, run_cli, tmp_path):
    raw = USER_DATES[:5]
    hv = course["human_vocab"]
    lp_ref, alpha_ref, predictions = original(course["model"], raw, hv)
    src = tmp_path / "pairs.txt"
    out = tmp_path / "out.jsonl"
    src.write_text("\n".join(raw) + "\n", encoding="utf8")
    run_cli("trace", "--model", course["pt"], "-i", src, "-o", out)
    records = [json.loads(line) for line in out.read_text(encoding="utf8").splitlines() if line.strip()]
    assert len(records) == len(raw)
    for b, rec in enumerate(records):
        ids = course_ids(raw[b], hv)
        n = len(ids)
        assert rec["source_ids"] == ids
        assert "".join(rec["source_tokens"]) == course_text(raw[b])
        assert len(rec["steps"]) == TY
        assert rec["target_ids"] == [int(i) for i in predictions[b]]
        for t, step in enumerate(rec["steps"]):
            assert len(step["alpha"]) == n and len(step["log_probs"]) == len(course["machine_vocab"])
            assert np.abs(np.array(step["log_probs"]) - lp_ref[b, t].numpy()).max() < TOL
            assert np.abs(np.array(step["alpha"]) - alpha_ref[b, t, :n].numpy()).max() < TOL
            assert abs(step["alpha_padding"] - alpha_ref[b, t, n:].sum().item()) < TOL
            assert step["chosen"] == int(predictions[b, t])


# -------------------------------------------------------------------------------------------------
# (c) The same model over words: a Keras Tokenizer's vocabulary, text split as text_to_word_sequence


def text_to_word_sequence(text: str, filters: str = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n', lower: bool = True,
                          split: str = " ") -> List[str]:
    """keras.preprocessing.text.text_to_word_sequence (Keras 2), re-typed."""
    if lower:
        text = text.lower()
    text = text.translate(str.maketrans({c: split for c in filters}))
    return [w for w in text.split(split) if w]


WORD_SOURCES = ["Tuesday, March 7 1983", "7.3.1983", "March 7, 1983", "SUNDAY, APRIL 1 1990", "3 May 1979 (Thu)",
                "the 1st of May 1979!", "Mon 7 Mar 1983", "don't ask: 1983/03/07", "École, 7 mars 1983", "12-25-1999"]


def word_ids(raw: str, vocab: Dict[str, int]) -> List[int]:
    return [vocab.get(w, vocab["<unk>"]) for w in text_to_word_sequence(raw)]


@pytest.fixture(scope="module")
def word_course(tmp_path_factory):
    """A word-level variant of the course model (random weights: the numbers are what is compared),
    its vocabularies as a Keras Tokenizer's word_index with '<pad>' at 0 and an oov token."""
    rng = random.Random(3)
    pairs = [random_date(rng) for _ in range(300)]
    words = sorted({w for raw, _ in pairs for w in text_to_word_sequence(raw)} - {"thu", "1st", "of", "the"})
    human_vocab = {w: i for i, w in enumerate(["<pad>", "<unk>"] + words)}
    machine_words = sorted({w for _, iso in pairs for w in iso.split("-")})
    machine_vocab = {w: i for i, w in enumerate(machine_words)}
    model = CourseModel(len(human_vocab), len(machine_vocab), seed=5).eval()
    with torch.no_grad():
        model.output_layer.kernel.mul_(30)  # untrained outputs are near uniform: spread them so greedy has no near ties
    return _written_and_converted(tmp_path_factory, "keras-words", "word-weights", "words", model, human_vocab,
                                  machine_vocab, "tf2", "2.11.0")


def word_original(model: CourseModel, raw: Sequence[str], vocab: Dict[str, int]):
    """The re-typed original over words in float64: (log-probs [n, Ty, V], alphas [n, Ty, Tx], predictions)."""
    ids = [(word_ids(r, vocab) + [vocab["<pad>"]] * TX)[:TX] for r in raw]
    with torch.no_grad():
        logits, alphas = copy.deepcopy(model).double()(one_hot(ids, len(vocab), torch.float64))
    return torch.log(torch.softmax(logits, -1)), alphas, logits.argmax(-1)


def test_word_vocabulary_is_tokenized_as_keras_does(word_course):
    m = torch.jit.load(word_course["pt"])
    for side in (m.src_tokenizer, m.tgt_tokenizer):
        spec = json.loads(side)
        assert spec["kind"] == "whitespace" and spec["detokenizer"] == "spaces"
        assert [n["type"] for n in spec["normalizers"]] == ["lowercase", "replace"]


def test_word_level_matches_the_original(word_course):
    """The converted file's own numbers (Python, TorchScript) against the original, word ids in."""
    vocab = word_course["human_vocab"]
    sources = [word_ids(r, vocab) for r in WORD_SOURCES]
    lp_ref, alpha_ref, _ = word_original(word_course["model"], WORD_SOURCES, vocab)
    _, _, outs = run_scripted(word_course["pt"], sources, TY, vocab["<pad>"])
    for t, out in enumerate(outs):
        for b, src in enumerate(sources):
            assert (out["log_probs"][b].double() - lp_ref[b, t]).abs().max().item() < TOL
            assert (out["alpha"][b, :len(src)].double() - alpha_ref[b, t, :len(src)]).abs().max().item() < TOL


def test_word_level_cli_tokenizes_and_translates_as_keras(word_course, run_cli, tmp_path):
    """alignscope-cli splits the text as text_to_word_sequence does (capitals, punctuation, accents,
    an apostrophe kept) and computes the original's numbers."""
    vocab = word_course["human_vocab"]
    lp_ref, alpha_ref, predictions = word_original(word_course["model"], WORD_SOURCES, vocab)
    src, out = tmp_path / "in.txt", tmp_path / "out.jsonl"
    src.write_text("\n".join(WORD_SOURCES) + "\n", encoding="utf8")
    run_cli("trace", "--model", word_course["pt"], "-i", src, "-o", out)
    records = [json.loads(line) for line in out.read_text(encoding="utf8").splitlines() if line.strip()]
    assert len(records) == len(WORD_SOURCES)
    for b, rec in enumerate(records):
        assert rec["source_tokens"] == text_to_word_sequence(WORD_SOURCES[b])
        assert rec["source_ids"] == word_ids(WORD_SOURCES[b], vocab)
        n = len(rec["source_ids"])
        for t, step in enumerate(rec["steps"]):
            assert np.abs(np.array(step["log_probs"]) - lp_ref[b, t].numpy()).max() < TOL
            assert np.abs(np.array(step["alpha"]) - alpha_ref[b, t, :n].numpy()).max() < TOL
    top2 = lp_ref.topk(2, -1).values
    assert (top2[..., 0] - top2[..., 1]).min().item() > 1e-3, "a near tie: the greedy choice is not well defined"
    translated = tmp_path / "translated.txt"
    run_cli("translate", "--model", word_course["pt"], "-i", src, "-o", translated)
    expected = [" ".join(word_course["inv"][int(i)] for i in row) for row in predictions]
    assert translated.read_text(encoding="utf8").splitlines() == expected


def test_french_with_no_break_spaces_is_split_as_keras_splits_it(word_course, run_cli, tmp_path):
    """Tatoeba's French puts U+202F before "?" and "!" (some lines U+00A0): text_to_word_sequence
    splits on the plain space only, so 'allez\u202f' is a token Keras gives. The vocabulary is
    accepted and alignscope-cli splits French lines into the same tokens."""
    french = ["Allez\u202f! On y va\u00a0?", "Quoi\u202f? D\u00e9j\u00e0\u00a0!"]
    words = sorted({w for line in french for w in text_to_word_sequence(line)})
    assert "allez\u202f" in words and "va\u00a0" in words and "d\u00e9j\u00e0\u00a0" in words
    human = dict(word_course["human_vocab"])
    for old, new in zip([w for w in human if not w.startswith("<")][-len(words):], words):
        human[new] = human.pop(old)
    from_keras_h5(word_course["h5"], human, word_course["machine_vocab"], Tx=TX, Ty=TY).save(str(tmp_path / "fr.pt"))
    src, out = tmp_path / "fr.txt", tmp_path / "fr.jsonl"
    src.write_text("\n".join(french) + "\n", encoding="utf8")
    run_cli("trace", "--model", tmp_path / "fr.pt", "-i", src, "-o", out)
    records = [json.loads(line) for line in out.read_text(encoding="utf8").splitlines() if line.strip()]
    assert [r["source_tokens"] for r in records] == [text_to_word_sequence(line) for line in french]
    assert [r["source_ids"] for r in records] == [word_ids(line, human) for line in french]


def test_word_vocabulary_no_keras_rule_gives_is_refused(word_course):
    human = dict(word_course["human_vocab"])
    human["March"] = len(human)  # a capital: text_to_word_sequence lower-cases
    with pytest.raises(ValueError, match=r"src_vocab holds multi-character tokens.*'March' could never come out.*src_tokenizer="):
        from_keras_h5(word_course["h5"], human, word_course["machine_vocab"], Tx=TX, Ty=TY)
    machine = {w: i for i, w in enumerate(["03.07"] + list(word_course["machine_vocab"])[1:])}  # a filtered '.'

    with pytest.raises(ValueError, match=r"tgt_vocab .*'03\.07'.*tgt_tokenizer="):
        from_keras_h5(word_course["h5"], word_course["human_vocab"], machine, Tx=TX, Ty=TY)


def test_tokenizers_given_are_written(word_course, tokenizer_options_work, tmp_path):
    cased = {"kind": "whitespace", "normalizers": [], "detokenizer": "spaces"}
    human = dict(word_course["human_vocab"])
    human["March"] = human.pop("march")
    adapted = from_keras_h5(word_course["h5"], human, word_course["machine_vocab"], Tx=TX, Ty=TY,
                            src_tokenizer=cased, tgt_tokenizer=json.dumps(cased))
    adapted.save(str(tmp_path / "cased.pt"))
    m = torch.jit.load(str(tmp_path / "cased.pt"))
    assert json.loads(m.src_tokenizer) == cased and json.loads(m.tgt_tokenizer) == cased
    with pytest.raises(ValueError, match="tgt_tokenizer: not a JSON tokenizer description"):
        from_keras_h5(word_course["h5"], human, word_course["machine_vocab"], Tx=TX, Ty=TY, src_tokenizer=cased,
                      tgt_tokenizer="{kind")
    tokenizer_options_work(lambda **t: from_keras_h5(word_course["h5"], word_course["human_vocab"],
                                                     word_course["machine_vocab"], Tx=TX, Ty=TY, **t))


def test_convert_command_takes_tokenizer_files(word_course, tmp_path):
    from alignscope.__main__ import main
    cased = {"kind": "whitespace", "normalizers": [], "detokenizer": "spaces"}
    human = dict(word_course["human_vocab"])
    human["March"] = human.pop("march")
    files = {"src": human, "tgt": word_course["machine_vocab"], "tok": cased}
    for name, value in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(value), encoding="utf8")
    out = tmp_path / "cased.pt"
    assert main(["convert", "keras", "--h5", word_course["h5"], "--src-vocab", str(tmp_path / "src.json"),
                 "--tgt-vocab", str(tmp_path / "tgt.json"), "--tx", str(TX), "--ty", str(TY),
                 "--src-tokenizer", str(tmp_path / "tok.json"), "-o", str(out)]) == 0
    assert json.loads(torch.jit.load(str(out)).src_tokenizer) == cased


def test_live_page_export(live_page_export_works, course):
    live_page_export_works(course["pt"])


# -------------------------------------------------------------------------------------------------
# The end token (issue 59): targets padded with '<pad>' end with it


def test_end_token_gives_a_forced_target_the_originals_end_step(tmp_path):
    """A course model whose targets end in '<pad>' (no end token of its own): with end_token='<pad>'
    greedy decoding stops there and a forced target gets one more step, the original's next output,
    so its last row and log-probability can be compared with Keras's."""
    from alignscope.decoding import LoadedModel, decode
    rng = random.Random(11)
    pairs = [random_date(rng) for _ in range(200)]
    human_vocab = {ch: i for i, ch in enumerate(sorted(set("".join(course_text(h) for h, _ in pairs)))
                                                + ["<unk>", "<pad>"])}
    machine_vocab = {t: i for i, t in enumerate(sorted(set("".join(m for _, m in pairs))) + ["<pad>"])}
    model = CourseModel(len(human_vocab), len(machine_vocab), seed=3).eval()
    h5 = str(tmp_path / "padded.h5")
    write_keras_h5(h5, model, "keras-2.0", "2.4.0")
    with pytest.raises(ValueError, match="end_token '<end>' is not in the target vocabulary"):
        from_keras_h5(h5, human_vocab, machine_vocab, Tx=TX, Ty=TY, end_token="<end>")
    assert json.loads(torch.jit.load(_saved(from_keras_h5(h5, human_vocab, machine_vocab, Tx=TX, Ty=TY),
                                            tmp_path / "plain.pt")).tgt_specials) == {}
    adapted = from_keras_h5(h5, human_vocab, machine_vocab, Tx=TX, Ty=TY, end_token="<pad>")
    loaded = LoadedModel(_saved(adapted, tmp_path / "padded.pt"))
    assert loaded.eos == machine_vocab["<pad>"]
    source, target = "3 May 1979", "1979-05"
    lp_ref, alpha_ref, _ = original(model, [source], human_vocab)
    d = decode(loaded, source, target=target, keep_log_probs=True)
    assert [s.token for s in d.steps][-1] == "<pad>" and len(d.steps) == len(target) + 1
    for t, step in enumerate(d.steps):  # every row, the end step's included, is the original's
        assert np.abs(np.array(step.log_probs) - lp_ref[0, t].numpy()).max() < TOL
    assert abs(d.steps[-1].log_prob - lp_ref[0, len(target), machine_vocab["<pad>"]].item()) < TOL
    greedy = decode(loaded, source)
    assert len(greedy.steps) <= TY and (greedy.steps[-1].token_id == loaded.eos or len(greedy.steps) == TY)


def _saved(adapted, path) -> str:
    adapted.save(str(path))
    return str(path)
