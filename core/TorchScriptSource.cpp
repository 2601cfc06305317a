#include "core/TorchScriptSource.h"

namespace alignscope::core {
namespace {

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
}

// The state of an LSTM is [h, c] side by side in one tensor, so every model has one state tensor.
const char* kGruCell = R"(
def _cell(self, x: Tensor, s: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor) -> Tensor:
    return torch.gru_cell(x, s, w_ih, w_hh, b_ih, b_hh)

def _hidden(self, s: Tensor) -> Tensor:
    return s

def _zero_state(self, batch: int, w_hh: Tensor) -> Tensor:
    return torch.zeros([batch, w_hh.size(1)], dtype=w_hh.dtype)

def _initial_state(self, h0: Tensor) -> Tensor:
    return h0
)";

const char* kLstmCell = R"(
def _cell(self, x: Tensor, s: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor) -> Tensor:
    n = w_hh.size(1)
    h, c = torch.lstm_cell(x, [s[:, :n], s[:, n:]], w_ih, w_hh, b_ih, b_hh)
    return torch.cat([h, c], 1)

def _hidden(self, s: Tensor) -> Tensor:
    return s[:, : s.size(1) // 2]

def _zero_state(self, batch: int, w_hh: Tensor) -> Tensor:
    return torch.zeros([batch, 2 * w_hh.size(1)], dtype=w_hh.dtype)

def _initial_state(self, h0: Tensor) -> Tensor:
    return torch.cat([h0, torch.zeros_like(h0)], 1)
)";

// One encoder direction over a padded batch: padded positions leave the state untouched, so the
// backward direction starts at each sentence's own last token and a padded batch equals the
// sentences run alone.
const char* kEncoder = R"(
def _run_direction(self, x: Tensor, mask: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor, reverse: bool) -> Tuple[Tensor, Tensor]:
    S = x.size(1)
    s = self._zero_state(x.size(0), w_hh)
    outs: List[Tensor] = []
    for i in range(S):
        t = S - 1 - i if reverse else i
        s = torch.where(mask[:, t].unsqueeze(1), self._cell(x[:, t], s, w_ih, w_hh, b_ih, b_hh), s)
        outs.append(self._hidden(s))
    if reverse:
        outs.reverse()
    return torch.stack(outs, 1), self._hidden(s)

def _encode(self, src: Tensor, src_len: Tensor, p: float) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    mask = torch.arange(src.size(1)).unsqueeze(0) < src_len.unsqueeze(1)
    x = torch.dropout(torch.embedding(self.src_emb, src), p, p > 0.0)
    fwd, last_f = self._run_direction(x, mask, self.enc_f_wih, self.enc_f_whh, self.enc_f_bih, self.enc_f_bhh, False)
@BIDIRECTIONAL@
    enc = enc * mask.unsqueeze(2).to(enc.dtype)
    state = self._initial_state(torch.tanh(torch.addmm(self.init_b, summary, self.init_w.t())))
    keys = @KEYS@
    return enc, state, mask, keys

def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return self._encode(src, src_len, 0.0)
)";

const char* kBidirectional = R"(
    bwd, last_b = self._run_direction(x, mask, self.enc_b_wih, self.enc_b_whh, self.enc_b_bih, self.enc_b_bhh, True)
    enc = torch.cat([fwd, bwd], 2)
    summary = torch.cat([last_f, last_b], 1)
)";

const char* kUnidirectional = R"(
    enc = fwd
    summary = last_f
)";

// _attend returns (alpha [B,S], context [B,E], energies [B,S], query [B,*]).
const char* kAdditive = R"(
def _attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    query = torch.matmul(h, self.att_W.t())
    energies = torch.matmul(torch.tanh(keys + query.unsqueeze(1)), self.att_v)
    alpha = torch.softmax(energies.masked_fill(torch.logical_not(mask), float("-inf")), 1)
    context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
    return alpha, context, energies, query
)";

const char* kBilinear = R"(
def _attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    energies = torch.bmm(keys, h.unsqueeze(2)).squeeze(2)
    alpha = torch.softmax(energies.masked_fill(torch.logical_not(mask), float("-inf")), 1)
    context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
    return alpha, context, energies, h
)";

// No attention: the context is the encoder's final state at every step (keys holds it, [B,1,E]);
// alpha is reported as uniform over the real source positions, and the metadata says so.
const char* kNoAttention = R"(
def _attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    m = mask.to(enc.dtype)
    alpha = m / m.sum(1, keepdim=True)
    return alpha, keys.squeeze(1), torch.zeros_like(alpha), h
)";

const char* kDecoder = R"(
def _step(self, y: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor, p: float) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    alpha, context, energies, query = self._attend(self._hidden(state), enc, keys, mask)
    new_state = self._cell(torch.cat([y, context], 1), state, self.dec_wih, self.dec_whh, self.dec_bih, self.dec_bhh)
    readout = torch.tanh(torch.addmm(self.out_b, torch.cat([self._hidden(new_state), context, y], 1), self.out_w.t()))
    readout = torch.dropout(readout, p, p > 0.0)
    return new_state, alpha, context, energies, query, readout

def _logits(self, readout: Tensor) -> Tensor:
    return torch.addmm(self.proj_b, readout, self.@PROJECTION@.t())

def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    y = torch.embedding(self.tgt_emb, y_prev)
    new_state, alpha, context, energies, query, readout = self._step(y, state, enc, keys, mask, 0.0)
    out: Dict[str, Tensor] = {"log_probs": torch.log_softmax(self._logits(readout), 1), "state": new_state, "alpha": alpha, "context": context, "readout": readout}
@EXTRAS@
    return out

def loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, dropout: float, smoothing: float) -> Tuple[Tensor, Tensor, Tensor]:
    enc, state, mask, keys = self._encode(src, src_len, dropout)
    # Embedding the whole target at once keeps one embedding gradient instead of one per step.
    ys = torch.dropout(torch.embedding(self.tgt_emb, tgt_in), dropout, dropout > 0.0)
    readouts: List[Tensor] = []
    for t in range(tgt_in.size(1)):
        state, alpha, context, energies, query, readout = self._step(ys[:, t], state, enc, keys, mask, dropout)
        readouts.append(readout)
    r = torch.stack(readouts, 1)
    lp = torch.log_softmax(self._logits(r.reshape([-1, r.size(2)])), 1)
    target = tgt_out.reshape([-1])
    valid = (target != self.pad_id).to(lp.dtype)
    nll = -lp.gather(1, target.unsqueeze(1)).squeeze(1)
    smoothed = (1.0 - smoothing) * nll - smoothing * lp.mean(1)
    return (smoothed * valid).sum(), (nll * valid).sum(), valid.sum()
)";

}  // namespace

std::string torchScriptSource(const ModelSpec& spec) {
    std::string code = spec.cell == ModelSpec::Cell::GRU ? kGruCell : kLstmCell;
    code += kEncoder;
    replaceAll(code, "@BIDIRECTIONAL@", spec.bidirectional ? kBidirectional : kUnidirectional);
    std::string keys = "enc";
    std::string extras = "    out[\"energies\"] = energies\n    out[\"query\"] = query";
    switch (spec.attention) {
    case ModelSpec::Attention::Additive:
        code += kAdditive;
        keys = "torch.matmul(enc, self.att_U.t())";
        break;
    case ModelSpec::Attention::General:
        code += kBilinear;
        keys = "torch.matmul(enc, self.att_Wa.t())";
        break;
    case ModelSpec::Attention::Dot:
        code += kBilinear;
        break;
    case ModelSpec::Attention::None:
        code += kNoAttention;
        keys = "summary.unsqueeze(1)";
        extras = "    pass";
        break;
    }
    replaceAll(code, "@KEYS@", keys);
    code += kDecoder;
    replaceAll(code, "@EXTRAS@", extras);
    replaceAll(code, "@PROJECTION@", spec.tieOutput ? "tgt_emb" : "proj_w");
    return code;
}

}  // namespace alignscope::core
