"""from_d2l: d2l.ai's Bahdanau attention model (PyTorch, d2l 1.0) as an AlignScope model file.

d2l is not installed: its classes are re-typed below from the book's source (d2l/torch.py and the
"Bahdanau Attention" chapter), a small model is trained with the book's recipe on a toy
English -> French-like corpus (adjectives move behind their noun, articles and adjectives agree),
converted, and compared with the original in Python and through alignscope-cli.
"""

import collections
import json
import random

import pytest
import torch
from torch import nn
from torch.nn import functional as F

from alignscope.adapters.d2l import from_d2l

torch.set_num_threads(1)

NUM_STEPS = 12
TOL = 1e-5


# =================================================================================================
# d2l 1.0 (PyTorch), re-typed from d2l/torch.py; plotting and device plumbing left out


def init_seq2seq(module):
    """Initialize weights for sequence-to-sequence learning."""
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)
    if type(module) == nn.GRU:
        for param in module._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(module._parameters[param])


class GRU(nn.Module):
    """The multilayer GRU model (d2l.GRU, a d2l.RNN around nn.GRU)."""
    def __init__(self, num_inputs, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.num_inputs, self.num_hiddens = num_inputs, num_hiddens
        self.num_layers, self.dropout = num_layers, dropout
        self.rnn = nn.GRU(num_inputs, num_hiddens, num_layers, dropout=dropout)

    def forward(self, inputs, H=None):
        return self.rnn(inputs, H)


class Encoder(nn.Module):
    """The base encoder interface for the encoder--decoder architecture."""
    def __init__(self):
        super().__init__()

    def forward(self, X, *args):
        raise NotImplementedError


class Decoder(nn.Module):
    """The base decoder interface for the encoder--decoder architecture."""
    def __init__(self):
        super().__init__()

    def init_state(self, enc_all_outputs, *args):
        raise NotImplementedError

    def forward(self, X, state):
        raise NotImplementedError


class EncoderDecoder(nn.Module):
    """The base class for the encoder--decoder architecture (d2l.Classifier's loss folded in)."""
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_X, dec_X, *args):
        enc_all_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_all_outputs, *args)
        # Return decoder output only
        return self.decoder(dec_X, dec_state)[0]

    def loss(self, Y_hat, Y, averaged=True):
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        Y = Y.reshape((-1,))
        return F.cross_entropy(Y_hat, Y, reduction='mean' if averaged else 'none')

    def predict_step(self, batch, device, num_steps, save_attention_weights=False):
        batch = [a.to(device) for a in batch]
        src, tgt, src_valid_len, _ = batch
        enc_all_outputs = self.encoder(src, src_valid_len)
        dec_state = self.decoder.init_state(enc_all_outputs, src_valid_len)
        outputs, attention_weights = [tgt[:, (0)].unsqueeze(1), ], []
        for _ in range(num_steps):
            Y, dec_state = self.decoder(outputs[-1], dec_state)
            outputs.append(Y.argmax(2))
            # Save attention weights (to be covered later)
            if save_attention_weights:
                attention_weights.append(self.decoder.attention_weights)
        return torch.cat(outputs[1:], 1), attention_weights


class Seq2SeqEncoder(Encoder):
    """The RNN encoder for sequence-to-sequence learning."""
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = GRU(embed_size, num_hiddens, num_layers, dropout)
        self.apply(init_seq2seq)

    def forward(self, X, *args):
        # X shape: (batch_size, num_steps)
        embs = self.embedding(X.t().type(torch.int64))
        # embs shape: (num_steps, batch_size, embed_size)
        outputs, state = self.rnn(embs)
        # outputs shape: (num_steps, batch_size, num_hiddens)
        # state shape: (num_layers, batch_size, num_hiddens)
        return outputs, state


class Seq2Seq(EncoderDecoder):
    """The RNN encoder--decoder for sequence to sequence learning."""
    def __init__(self, encoder, decoder, tgt_pad, lr):
        super().__init__(encoder, decoder)
        self.tgt_pad, self.lr = tgt_pad, lr

    def configure_optimizers(self):
        # Adam optimizer is used here
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def loss(self, Y_hat, Y):
        l = super(Seq2Seq, self).loss(Y_hat, Y, averaged=False)
        mask = (Y.reshape(-1) != self.tgt_pad).type(torch.float32)
        return (l * mask).sum() / mask.sum()


def masked_softmax(X, valid_lens):
    """Perform softmax operation by masking elements on the last axis."""
    # X: 3D tensor, valid_lens: 1D or 2D tensor
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32,
                            device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        # On the last axis, replace masked elements with a very large negative
        # value, whose exponentiation outputs 0
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)


class AdditiveAttention(nn.Module):
    """Additive attention."""
    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # After dimension expansion, shape of queries: (batch_size, no. of
        # queries, 1, num_hiddens) and shape of keys: (batch_size, 1, no. of
        # key-value pairs, num_hiddens). Sum them up with broadcasting
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        # There is only one output of self.w_v, so we remove the last
        # one-dimensional entry from the shape. Shape of scores: (batch_size,
        # no. of queries, no. of key-value pairs)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        # Shape of values: (batch_size, no. of key-value pairs, value
        # dimension)
        return torch.bmm(self.dropout(self.attention_weights), values)


class AttentionDecoder(Decoder):
    """The base attention-based decoder interface."""
    def __init__(self):
        super().__init__()

    @property
    def attention_weights(self):
        raise NotImplementedError


class Seq2SeqAttentionDecoder(AttentionDecoder):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.attention = AdditiveAttention(num_hiddens, dropout)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(
            embed_size + num_hiddens, num_hiddens, num_layers,
            dropout=dropout)
        self.dense = nn.LazyLinear(vocab_size)
        self.apply(init_seq2seq)

    def init_state(self, enc_outputs, enc_valid_lens):
        # Shape of outputs: (num_steps, batch_size, num_hiddens).
        # Shape of hidden_state: (num_layers, batch_size, num_hiddens)
        outputs, hidden_state = enc_outputs
        return (outputs.permute(1, 0, 2), hidden_state, enc_valid_lens)

    def forward(self, X, state):
        # Shape of enc_outputs: (batch_size, num_steps, num_hiddens).
        # Shape of hidden_state: (num_layers, batch_size, num_hiddens)
        enc_outputs, hidden_state, enc_valid_lens = state
        # Shape of the output X: (num_steps, batch_size, embed_size)
        X = self.embedding(X).permute(1, 0, 2)
        outputs, self._attention_weights = [], []
        for x in X:
            # Shape of query: (batch_size, 1, num_hiddens)
            query = torch.unsqueeze(hidden_state[-1], dim=1)
            # Shape of context: (batch_size, 1, num_hiddens)
            context = self.attention(
                query, enc_outputs, enc_outputs, enc_valid_lens)
            # Concatenate on the feature dimension
            x = torch.cat((context, torch.unsqueeze(x, dim=1)), dim=-1)
            # Reshape x as (1, batch_size, embed_size + num_hiddens)
            out, hidden_state = self.rnn(x.permute(1, 0, 2), hidden_state)
            outputs.append(out)
            self._attention_weights.append(self.attention.attention_weights)
        # After fully connected layer transformation, shape of outputs:
        # (num_steps, batch_size, vocab_size)
        outputs = self.dense(torch.cat(outputs, dim=0))
        return outputs.permute(1, 0, 2), [enc_outputs, hidden_state,
                                          enc_valid_lens]

    @property
    def attention_weights(self):
        return self._attention_weights


class Vocab:
    """Vocabulary for text."""
    def __init__(self, tokens=[], min_freq=0, reserved_tokens=[]):
        # Flatten a 2D list if needed
        if tokens and isinstance(tokens[0], list):
            tokens = [token for line in tokens for token in line]
        # Count token frequencies
        counter = collections.Counter(tokens)
        self.token_freqs = sorted(counter.items(), key=lambda x: x[1],
                                  reverse=True)
        # The list of unique tokens
        self.idx_to_token = list(sorted(set(['<unk>'] + reserved_tokens + [
            token for token, freq in self.token_freqs if freq >= min_freq])))
        self.token_to_idx = {token: idx
                             for idx, token in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, self.unk)
        return [self.__getitem__(token) for token in tokens]

    def to_tokens(self, indices):
        if hasattr(indices, '__len__') and len(indices) > 1:
            return [self.idx_to_token[int(index)] for index in indices]
        return self.idx_to_token[indices]

    @property
    def unk(self):  # Index for the unknown token
        return self.token_to_idx['<unk>']


class MTFraEng:
    """The English-French dataset (d2l.MTFraEng), fed our raw text instead of the download."""
    def __init__(self, raw_text, batch_size, num_steps=9, num_train=512, num_val=128):
        self.batch_size, self.num_steps = batch_size, num_steps
        self.num_train, self.num_val = num_train, num_val
        self.arrays, self.src_vocab, self.tgt_vocab = self._build_arrays(raw_text)

    def _preprocess(self, text):
        # Replace non-breaking space with space
        text = text.replace('\u202f', ' ').replace('\xa0', ' ')
        # Insert space between words and punctuation marks
        no_space = lambda char, prev_char: char in ',.!?' and prev_char != ' '
        out = [' ' + char if i > 0 and no_space(char, text[i - 1]) else char
               for i, char in enumerate(text.lower())]
        return ''.join(out)

    def _tokenize(self, text, max_examples=None):
        src, tgt = [], []
        for i, line in enumerate(text.split('\n')):
            if max_examples and i > max_examples: break
            parts = line.split('\t')
            if len(parts) == 2:
                # Skip empty tokens
                src.append([t for t in f'{parts[0]} <eos>'.split(' ') if t])
                tgt.append([t for t in f'{parts[1]} <eos>'.split(' ') if t])
        return src, tgt

    def _build_arrays(self, raw_text, src_vocab=None, tgt_vocab=None):
        def _build_array(sentences, vocab, is_tgt=False):
            pad_or_trim = lambda seq, t: (
                seq[:t] if len(seq) > t else seq + ['<pad>'] * (t - len(seq)))
            sentences = [pad_or_trim(s, self.num_steps) for s in sentences]
            if is_tgt:
                sentences = [['<bos>'] + s for s in sentences]
            if vocab is None:
                vocab = Vocab(sentences, min_freq=2)
            array = torch.tensor([vocab[s] for s in sentences])
            valid_len = (array != vocab['<pad>']).type(torch.int32).sum(1)
            return array, vocab, valid_len
        src, tgt = self._tokenize(self._preprocess(raw_text),
                                  self.num_train + self.num_val)
        src_array, src_vocab, src_valid_len = _build_array(src, src_vocab)
        tgt_array, tgt_vocab, _ = _build_array(tgt, tgt_vocab, True)
        return ((src_array, tgt_array[:, :-1], src_valid_len, tgt_array[:, 1:]),
                src_vocab, tgt_vocab)

    def get_dataloader(self, train):
        idx = slice(0, self.num_train) if train else slice(self.num_train, None)
        tensors = tuple(a[idx] for a in self.arrays)
        dataset = torch.utils.data.TensorDataset(*tensors)
        return torch.utils.data.DataLoader(dataset, self.batch_size, shuffle=train)

    def build(self, src_sentences, tgt_sentences):
        raw_text = '\n'.join([src + '\t' + tgt for src, tgt in zip(
            src_sentences, tgt_sentences)])
        arrays, _, _ = self._build_arrays(
            raw_text, self.src_vocab, self.tgt_vocab)
        return arrays


def clip_gradients(grad_clip_val, model):
    """d2l.Trainer.clip_gradients."""
    params = [p for p in model.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > grad_clip_val:
        for param in params:
            param.grad[:] *= grad_clip_val / norm


def d2l_translate(model, data, sentences):
    """The chapter's prediction: data.build, predict_step for num_steps steps, cut at '<eos>'."""
    model.eval()
    with torch.no_grad():
        preds, _ = model.predict_step(data.build(sentences, ['.'] * len(sentences)), 'cpu', data.num_steps)
    out = []
    for p in preds:
        translation = []
        for token in data.tgt_vocab.to_tokens(p):
            if token == '<eos>':
                break
            translation.append(token)
        out.append(' '.join(translation))
    return out


# =================================================================================================
# A toy corpus: English -> French-like, adjectives behind the noun, gender agreement

NOUNS = {"cat": ("chat", "m"), "dog": ("chien", "m"), "bird": ("oiseau", "m"), "horse": ("cheval", "m"),
         "car": ("voiture", "f"), "house": ("maison", "f"), "apple": ("pomme", "f"), "table": ("table", "f")}
ADJS = {"red": ("rouge", "rouge"), "small": ("petit", "petite"), "big": ("grand", "grande"),
        "black": ("noir", "noire"), "green": ("vert", "verte")}
TRANSITIVE = {"sees": "voit", "likes": "aime", "wants": "veut", "takes": "prend", "eats": "mange"}
INTRANSITIVE = {"sleeps": "dort", "runs": "court", "sings": "chante"}
NAMES = {"Tom": "Tom", "Mary": "Marie", "Paul": "Paul", "Anna": "Anne"}


def noun_phrase(rng, subject):
    if subject and rng.random() < 0.3:
        name = rng.choice(sorted(NAMES))
        return name, NAMES[name]
    noun = rng.choice(sorted(NOUNS))
    fr_noun, gender = NOUNS[noun]
    definite = rng.random() < 0.6
    en = ["the" if definite else "a"]
    fr = [("le" if gender == "m" else "la") if definite else ("un" if gender == "m" else "une")]
    if rng.random() < 0.5:
        adj = rng.choice(sorted(ADJS))
        en += [adj, noun]
        fr += [fr_noun, ADJS[adj][0 if gender == "m" else 1]]
    else:
        en.append(noun)
        fr.append(fr_noun)
    return " ".join(en), " ".join(fr)


def sentence_pair(rng):
    """Raw text as people type it: capitals, punctuation attached, French's narrow space before !."""
    s_en, s_fr = noun_phrase(rng, True)
    if rng.random() < 0.7:
        verb = rng.choice(sorted(TRANSITIVE))
        o_en, o_fr = noun_phrase(rng, False)
        en, fr = f"{s_en} {verb} {o_en}", f"{s_fr} {TRANSITIVE[verb]} {o_fr}"
    else:
        verb = rng.choice(sorted(INTRANSITIVE))
        en, fr = f"{s_en} {verb}", f"{s_fr} {INTRANSITIVE[verb]}"
    if rng.random() < 0.2:
        en, fr = f"yes, {en}", f"oui, {fr}"
    if rng.random() < 0.3:
        en, fr = en + "!", fr + "\u202f!"
    else:
        en, fr = en + ".", fr + "."
    return en[0].upper() + en[1:], fr[0].upper() + fr[1:]


def corpus(count, seed):
    rng = random.Random(seed)
    return [sentence_pair(rng) for _ in range(count)]


# =================================================================================================
# Fixtures


@pytest.fixture(scope="module")
def trained():
    """A 2-layer GRU model trained with the chapter's recipe (Adam, masked CE, gradient clip 1)."""
    torch.manual_seed(0)
    pairs = corpus(640, seed=1)
    raw_text = "\n".join(f"{en}\t{fr}" for en, fr in pairs)
    data = MTFraEng(raw_text, batch_size=64, num_steps=NUM_STEPS, num_train=512, num_val=128)
    embed_size, num_hiddens, num_layers, dropout = 32, 32, 2, 0.1
    encoder = Seq2SeqEncoder(len(data.src_vocab), embed_size, num_hiddens, num_layers, dropout)
    decoder = Seq2SeqAttentionDecoder(len(data.tgt_vocab), embed_size, num_hiddens, num_layers, dropout)
    model = Seq2Seq(encoder, decoder, tgt_pad=data.tgt_vocab['<pad>'], lr=0.005)
    with torch.no_grad():  # materialise the LazyLinear layers before the optimizer sees them
        model(*[a[:2] for a in data.arrays[:-1]])
    optim = model.configure_optimizers()
    model.train()
    steps = 0
    while steps < 320:
        for batch in data.get_dataloader(train=True):
            loss = model.loss(model(*batch[:-1]), batch[-1])
            optim.zero_grad()
            with torch.no_grad():
                loss.backward()
                clip_gradients(1, model)
                optim.step()
            steps += 1
    model.loss_value = loss.item()
    model.eval()
    return model, data


@pytest.fixture(scope="module")
def model_file(trained, tmp_path_factory):
    model, data = trained
    path = tmp_path_factory.mktemp("d2l") / "model.pt"
    from_d2l(model, data.src_vocab, data.tgt_vocab, num_steps=data.num_steps).save(str(path))
    return path


def original(model, data, src_ids, dec_input):
    """The original model on one pair alone: (log_probs [T,V], alpha [T,num_steps])."""
    padded = src_ids + [data.src_vocab['<pad>']] * (NUM_STEPS - len(src_ids))
    X = torch.tensor([padded])
    valid_len = torch.tensor([len(src_ids)])
    with torch.no_grad():
        state = model.decoder.init_state(model.encoder(X, valid_len), valid_len)
        Y, _ = model.decoder(torch.tensor([dec_input]), state)
    alpha = torch.cat([w.reshape(1, -1) for w in model.decoder.attention_weights])
    return torch.log_softmax(Y[0], -1), alpha


def d2l_tokens(data, text):
    """d2l's preprocessing and tokenisation of one side (the <eos> it appends left off)."""
    return [t for t in data._preprocess(text).split(' ') if t]


# Sentences not in the training data (fresh seed), as a user types them
def fresh_sentences(count, seed):
    return [en for en, _ in corpus(count, seed)]


# =================================================================================================
# Python side


def test_training_learned_something(trained):
    model, data = trained
    assert model.loss_value < 1.0
    # the vocabulary sort put the specials among the words (',', '.', '!' sort before '<eos>')
    for vocab in (data.src_vocab, data.tgt_vocab):
        assert [vocab.token_to_idx.get(t) for t in ('<pad>', '<unk>', '<bos>', '<eos>')][:2] != [0, 1]


def test_converted_model_matches_the_original(trained, model_file):
    model, data = trained
    m = torch.jit.load(str(model_file))
    assert m.format_version == 2
    src_specials, tgt_specials = json.loads(m.src_specials), json.loads(m.tgt_specials)
    assert list(m.src_vocab) == data.src_vocab.idx_to_token
    assert list(m.tgt_vocab) == data.tgt_vocab.idx_to_token
    for name in ("pad", "unk", "eos"):
        assert src_specials[name] == data.src_vocab.token_to_idx[f"<{name}>"]
    assert "bos" not in src_specials  # d2l 1.0's source vocabulary has no <bos>
    for name in ("pad", "unk", "bos", "eos"):
        assert tgt_specials[name] == data.tgt_vocab.token_to_idx[f"<{name}>"]
    meta = json.loads(m.metadata)
    assert meta["max_length"] == NUM_STEPS and meta["max_source_length"] == NUM_STEPS
    assert meta["source_eos"] is True and meta["attends_padding"] is False
    assert meta["attention"] == {"kind": "additive", "bias": False, "when": "before_cell"}
    assert meta["encoder"] == {"cell": "gru", "layers": 2, "bidirectional": False}
    tok = json.loads(m.src_tokenizer)
    assert tok["kind"] == "whitespace" and tok["detokenizer"] == "spaces"

    # several sentences of different lengths, teacher-forced on their reference translations,
    # as one padded batch (shorter than num_steps: encode pads to num_steps itself)
    pairs = corpus(6, seed=99)
    sources = [data.src_vocab[d2l_tokens(data, en)] + [data.src_vocab['<eos>']] for en, _ in pairs]
    targets = [data.tgt_vocab[d2l_tokens(data, fr)] + [data.tgt_vocab['<eos>']] for _, fr in pairs]
    assert len({len(s) for s in sources}) > 2 and max(map(len, sources)) < NUM_STEPS
    B, S = len(sources), max(map(len, sources))
    pad = src_specials["pad"]
    src = torch.tensor([s + [pad] * (S - len(s)) for s in sources])
    src_len = torch.tensor([len(s) for s in sources])
    T = max(map(len, targets))
    bos = tgt_specials["bos"]
    dec_inputs = [[bos] + t[:-1] + [bos] * (T - len(t)) for t in targets]
    with torch.no_grad():
        enc, state, mask, keys = m.encode(src, src_len)
        got_lp, got_alpha = [], []
        for t in range(T):
            out = m.step(torch.tensor([d[t] for d in dec_inputs]), state, enc, keys, mask)
            state = out["state"]
            got_lp.append(out["log_probs"])
            got_alpha.append(out["alpha"])
            assert "alpha_padding" not in out
    assert torch.equal(enc[~mask], torch.zeros_like(enc[~mask]))
    for b in range(B):
        n = len(sources[b])
        lp, alpha = original(model, data, sources[b], dec_inputs[b])
        # d2l's -1e6 masking underflows: exactly no attention on its own padding
        assert torch.all(alpha[:, n:] == 0)
        for t in range(T):
            assert (got_lp[t][b] - lp[t]).abs().max().item() < TOL
            assert (got_alpha[t][b, :n] - alpha[t, :n]).abs().max().item() < TOL
            assert torch.all(got_alpha[t][b, n:] == 0)
            assert abs(got_alpha[t][b].sum().item() - 1) < 1e-5


def test_tokenizer_json_reproduces_d2l_preprocessing(trained, model_file, tokenize_like_alignscope):
    _, data = trained
    m = torch.jit.load(str(model_file))
    for tokenizer in (json.loads(m.src_tokenizer), json.loads(m.tgt_tokenizer)):
        texts = [t for pair in corpus(50, seed=5) for t in pair] + [
            "Hello...", "Yes,Tom sleeps .", "Va\u202f!", "Quoi\xa0?", " Tom  runs! ", "Ça va, Éric?", "a ,b"]
        for text in texts:
            assert tokenize_like_alignscope(tokenizer, text) == d2l_tokens(data, text), text


def test_scripted_greedy_matches_d2l_predict(trained, model_file, tokenize_like_alignscope):
    """What translate does, in Python: the file's tokenizer, encode, greedy steps up to max_length."""
    model, data = trained
    m = torch.jit.load(str(model_file))
    tokenizer, meta = json.loads(m.src_tokenizer), json.loads(m.metadata)
    src_specials, tgt_specials = json.loads(m.src_specials), json.loads(m.tgt_specials)
    src_index = {t: i for i, t in enumerate(m.src_vocab)}
    sentences = fresh_sentences(20, seed=7)
    got = []
    with torch.no_grad():
        for text in sentences:
            ids = [src_index.get(t, src_specials["unk"]) for t in tokenize_like_alignscope(tokenizer, text)]
            ids.append(src_specials["eos"])
            enc, state, mask, keys = m.encode(torch.tensor([ids]), torch.tensor([len(ids)]))
            y, out_ids = tgt_specials["bos"], []
            for _ in range(meta["max_length"]):
                out = m.step(torch.tensor([y]), state, enc, keys, mask)
                state, y = out["state"], int(out["log_probs"][0].argmax())
                if y == tgt_specials["eos"]:
                    break
                out_ids.append(y)
            got.append(" ".join(m.tgt_vocab[i] for i in out_ids))
    assert got == d2l_translate(model, data, sentences)


def test_alpha_padding_when_flagged(trained):
    """Where d2l's -1e6 could leave mass on the padding, step reports it (here it is exactly 0)."""
    model, data = trained
    adapted = from_d2l(model, data.src_vocab, data.tgt_vocab, num_steps=NUM_STEPS)
    adapted.module.attends_padding = True
    m = torch.jit.script(adapted.module)
    src = torch.tensor([[data.src_vocab['tom'], data.src_vocab['<eos>'], 0]])
    enc, state, mask, keys = m.encode(src, torch.tensor([2]))
    out = m.step(torch.tensor([data.tgt_vocab['<bos>']]), state, enc, keys, mask)
    assert out["alpha_padding"].tolist() == [0.0]
    assert abs(out["alpha"].sum().item() - 1) < 1e-6


def test_num_steps_is_required(trained):
    model, data = trained
    with pytest.raises(ValueError, match="num_steps"):
        from_d2l(model, data.src_vocab, data.tgt_vocab)
    # ... unless it can be found: the d2l data module carries it
    adapted = from_d2l(model, data)
    assert adapted.metadata["max_length"] == NUM_STEPS


def test_wrong_inputs_are_refused(trained):
    model, data = trained
    with pytest.raises(ValueError, match="vocabularies do not fit"):
        from_d2l(model, data.tgt_vocab, data.src_vocab, num_steps=NUM_STEPS)
    with pytest.raises(ValueError, match="no .attention"):
        from_d2l(EncoderDecoder(model.encoder, nn.Module()), data.src_vocab, data.tgt_vocab, num_steps=NUM_STEPS)


def test_d2l_017_layout(trained, tmp_path):
    """d2l 0.17: the encoder's rnn is the nn.GRU itself and the layers are plain Linear; same math."""
    model, data = trained
    old = EncoderDecoder(Seq2SeqEncoder(len(data.src_vocab), 32, 32, 2), model.decoder)
    old.encoder.embedding = model.encoder.embedding
    old.encoder.rnn = model.encoder.rnn.rnn
    adapted = from_d2l(old, data.src_vocab, data.tgt_vocab, num_steps=NUM_STEPS)
    assert "0.17" in adapted.metadata["converted_from"]
    adapted.save(str(tmp_path / "old.pt"))


# =================================================================================================
# Through alignscope-cli


def test_cli_inspect(run_cli, model_file):
    run_cli("inspect", "--model", model_file)


def test_cli_translate_matches_d2l_predict(run_cli, trained, model_file, tmp_path):
    model, data = trained
    sentences = fresh_sentences(18, seed=7) + ["The\u00a0small dog runs!", "Yes,Tom sleeps ."]
    expected = d2l_translate(model, data, sentences)
    assert all(len(d2l_tokens(data, s)) < NUM_STEPS for s in sentences)
    (tmp_path / "in.txt").write_text("\n".join(sentences) + "\n", encoding="utf-8")
    run_cli("translate", "--model", model_file, "--beam", 1, "-i", tmp_path / "in.txt", "-o", tmp_path / "out.txt")
    got = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert got == expected


def test_cli_gradient_attributions_work_on_the_adapted_model(gradient_attributions_work, model_file, tmp_path):
    gradient_attributions_work(model_file, corpus(3, seed=13), tmp_path)


def test_cli_trace_matches_the_original(run_cli, trained, model_file, tmp_path):
    model, data = trained
    pairs = corpus(5, seed=11)
    (tmp_path / "pairs.txt").write_text("".join(f"{en} ||| {fr}\n" for en, fr in pairs), encoding="utf-8")
    run_cli("trace", "--model", model_file, "-i", tmp_path / "pairs.txt", "-o", tmp_path / "out.jsonl")
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(pairs)
    src_eos, tgt_eos, bos = data.src_vocab['<eos>'], data.tgt_vocab['<eos>'], data.tgt_vocab['<bos>']

    def without_eos(ids, eos):
        return ids[:-1] if ids and ids[-1] == eos else ids

    for line, (en, fr) in zip(lines, pairs):
        rec = json.loads(line)
        src_ids = data.src_vocab[d2l_tokens(data, en)] + [src_eos]
        tgt_ids = data.tgt_vocab[d2l_tokens(data, fr)] + [tgt_eos]
        assert without_eos(rec["source_ids"], src_eos) == src_ids[:-1]
        assert without_eos(rec["target_ids"], tgt_eos) == tgt_ids[:-1]
        assert rec["source_tokens"][:len(src_ids) - 1] == d2l_tokens(data, en)
        steps = rec["steps"]
        assert len(steps) == len(tgt_ids)
        lp, alpha = original(model, data, src_ids, [bos] + tgt_ids[:-1])
        for t, step in enumerate(steps):
            assert step["y_prev"] == ([bos] + tgt_ids)[t]
            assert "alpha_padding" not in step
            assert len(step["log_probs"]) == len(data.tgt_vocab)
            assert len(step["alpha"]) == len(src_ids)
            assert (torch.tensor(step["log_probs"]) - lp[t]).abs().max().item() < TOL
            assert (torch.tensor(step["alpha"]) - alpha[t, :len(src_ids)]).abs().max().item() < TOL


def test_tokenizers_given_are_written(trained, tokenizer_options_work):
    model, data = trained
    tokenizer_options_work(lambda **t: from_d2l(model, data.src_vocab, data.tgt_vocab, num_steps=data.num_steps, **t))


def test_live_page_export(live_page_export_works, model_file):
    live_page_export_works(model_file)
