"""from_pytorch_tutorial: a model trained the PyTorch tutorial's way ("NLP From Scratch: Translation
with a Sequence to Sequence Network and Attention", the batched version with BahdanauAttention)
converted to an AlignScope file, which must give the original's numbers and translations.

The tutorial's code is re-typed below (nothing is imported from it); its data file is replaced by a
small synthetic French-like -> English grammar (adjectives after the noun, ne ... pas), trained a
few hundred batches the tutorial's way: padded to MAX_LENGTH, NLLLoss, Adam.
"""

import json
import random
import re
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from alignscope.adapters.pytorch_tutorial import from_pytorch_tutorial  # noqa: E402

torch.set_num_threads(1)
device = torch.device("cpu")
TOLERANCE = 1e-5

# ------------------------------------------------------------------------------------------------
# The tutorial (intermediate_source/seq2seq_translation_tutorial.py), re-typed

SOS_token = 0
EOS_token = 1


class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.word2count = {}
        self.index2word = {0: "SOS", 1: "EOS"}
        self.n_words = 2  # Count SOS and EOS

    def addSentence(self, sentence):
        for word in sentence.split(' '):
            self.addWord(word)

    def addWord(self, word):
        if word not in self.word2index:
            self.word2index[word] = self.n_words
            self.word2count[word] = 1
            self.index2word[self.n_words] = word
            self.n_words += 1
        else:
            self.word2count[word] += 1


def unicodeToAscii(s):
    return ''.join(
        c for c in unicodedata.normalize('NFD', s)
        if unicodedata.category(c) != 'Mn'
    )


def normalizeString(s):
    s = unicodeToAscii(s.lower().strip())
    s = re.sub(r"([.!?])", r" \1", s)
    s = re.sub(r"[^a-zA-Z!?]+", r" ", s)
    return s.strip()


MAX_LENGTH = 10


def filterPair(p):
    return len(p[0].split(' ')) < MAX_LENGTH and \
        len(p[1].split(' ')) < MAX_LENGTH


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size

        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)

        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)

        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        attentions = []

        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(
                decoder_input, decoder_hidden, encoder_outputs
            )
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)

            if target_tensor is not None:
                # Teacher forcing: Feed the target as the next input
                decoder_input = target_tensor[:, i].unsqueeze(1)  # Teacher forcing
            else:
                # Without teacher forcing: use its own predictions as the next input
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()  # detach from history as input

        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)

        return decoder_outputs, decoder_hidden, attentions

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))

        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)

        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)

        return output, hidden, attn_weights


def indexesFromSentence(lang, sentence):
    return [lang.word2index[word] for word in sentence.split(' ')]


def tensorFromSentence(lang, sentence):
    indexes = indexesFromSentence(lang, sentence)
    indexes.append(EOS_token)
    return torch.tensor(indexes, dtype=torch.long, device=device).view(1, -1)


def get_dataloader(batch_size, input_lang, output_lang, pairs):
    # The tutorial's get_dataloader, given the pairs instead of reading data/eng-fra.txt.
    n = len(pairs)
    input_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)
    target_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)

    for idx, (inp, tgt) in enumerate(pairs):
        inp_ids = indexesFromSentence(input_lang, inp)
        tgt_ids = indexesFromSentence(output_lang, tgt)
        inp_ids.append(EOS_token)
        tgt_ids.append(EOS_token)
        input_ids[idx, :len(inp_ids)] = inp_ids
        target_ids[idx, :len(tgt_ids)] = tgt_ids

    train_data = TensorDataset(torch.LongTensor(input_ids).to(device),
                               torch.LongTensor(target_ids).to(device))

    train_sampler = RandomSampler(train_data)
    train_dataloader = DataLoader(train_data, sampler=train_sampler, batch_size=batch_size)
    return train_dataloader


def train_epoch(dataloader, encoder, decoder, encoder_optimizer,
                decoder_optimizer, criterion):

    total_loss = 0
    for data in dataloader:
        input_tensor, target_tensor = data

        encoder_optimizer.zero_grad()
        decoder_optimizer.zero_grad()

        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)

        loss = criterion(
            decoder_outputs.view(-1, decoder_outputs.size(-1)),
            target_tensor.view(-1)
        )
        loss.backward()

        encoder_optimizer.step()
        decoder_optimizer.step()

        total_loss += loss.item()

    return total_loss / len(dataloader)


def train(train_dataloader, encoder, decoder, n_epochs, learning_rate=0.001):
    encoder_optimizer = optim.Adam(encoder.parameters(), lr=learning_rate)
    decoder_optimizer = optim.Adam(decoder.parameters(), lr=learning_rate)
    criterion = nn.NLLLoss()
    losses = []
    for epoch in range(1, n_epochs + 1):
        losses.append(train_epoch(train_dataloader, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion))
    return losses


def evaluate(encoder, decoder, sentence, input_lang, output_lang):
    with torch.no_grad():
        input_tensor = tensorFromSentence(input_lang, sentence)

        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, decoder_hidden, decoder_attn = decoder(encoder_outputs, encoder_hidden)

        _, topi = decoder_outputs.topk(1)
        decoded_ids = topi.squeeze()

        decoded_words = []
        for idx in decoded_ids:
            if idx.item() == EOS_token:
                decoded_words.append('<EOS>')
                break
            decoded_words.append(output_lang.index2word[idx.item()])
    return decoded_words, decoder_attn


# ------------------------------------------------------------------------------------------------
# A toy grammar instead of data/eng-fra.txt: French-like source, English target

SUBJECTS = [("le chat", "the cat"), ("la fille", "the girl"), ("le garçon", "the boy"),
            ("l'élève", "the pupil"), ("le médecin", "the doctor"), ("la reine", "the queen"),
            ("mon frère", "my brother")]
OBJECTS = [("la pomme", "the apple"), ("le gâteau", "the cake"), ("le livre", "the book"),
           ("la clé", "the key"), ("le café", "the coffee"), ("l'échelle", "the ladder")]
VERBS = [("mange", "eats", "eat"), ("voit", "sees", "see"), ("aime", "likes", "like"),
         ("prend", "takes", "take"), ("préfère", "prefers", "prefer")]
ADJECTIVES = [("rouge", "red"), ("jaune", "yellow"), ("énorme", "huge"), ("célèbre", "famous"),
              ("étrange", "strange")]


def noun_phrase(rng, nouns):
    fr, en = rng.choice(nouns)
    if rng.random() < 0.4:  # the adjective follows the noun in French, precedes it in English
        adj_fr, adj_en = rng.choice(ADJECTIVES)
        det, noun = en.split(" ")
        return f"{fr} {adj_fr}", f"{det} {adj_en} {noun}"
    return fr, en


def make_pair(rng):
    subj_fr, subj_en = noun_phrase(rng, SUBJECTS)
    obj_fr, obj_en = noun_phrase(rng, OBJECTS)
    verb_fr, verb_en, verb_base = rng.choice(VERBS)
    if rng.random() < 0.3:
        ne = "n'" if verb_fr[0] in "aeiouéè" else "ne "
        fr, en = f"{subj_fr} {ne}{verb_fr} pas {obj_fr}", f"{subj_en} does not {verb_base} {obj_en}"
    else:
        fr, en = f"{subj_fr} {verb_fr} {obj_fr}", f"{subj_en} {verb_en} {obj_en}"
    mark = rng.choice([".", ".", "!", "?"])
    return fr[0].upper() + fr[1:] + mark, en[0].upper() + en[1:] + mark


# 20 sentences as a user types them: capitals, accents (composed and decomposed), apostrophes,
# punctuation, spacing. All words are in the grammar. The trained model never ends some of them
# ("rouge" -> "the red red red ..."): evaluate() stops those at MAX_LENGTH words.
TYPED = [
    "Le chat mange la pomme.",
    "LE CHAT ROUGE MANGE LA POMME JAUNE !",
    "L'élève aime le gâteau?",
    "L’ÉLÈVE n’aime pas le café.",
    "  la reine voit l'échelle énorme...  ",
    "Mon frère préfère le livre célèbre!",
    "Le médecin étrange prend la clé",
    "La fille ne prend pas le gâteau rouge ?",
    "le garçon, voit le livre.",
    "La Reine Célèbre aime la pomme!!",
    "Le garc\u0327on prend la cle\u0301.",
    "MON FRÈRE NE MANGE PAS LA POMME.",
    "La fille jaune préfère le café ?",
    "« Le chat voit la clé étrange »",
    "Le médecin n'aime pas l'échelle!",
    "Rouge.",
    "La reine ne voit pas le livre jaune?",
    "  Célèbre !",
    "Mon frère prend l'échelle rouge !",
    "La fille voit... le café ; le chat !",
]
UNKNOWN = "Le chat mange la banane."


@pytest.fixture(scope="module")
def trained():
    """The tutorial's pipeline on the toy grammar: (encoder, decoder, input_lang, output_lang, pairs)."""
    torch.manual_seed(0)
    rng = random.Random(0)
    raw = sorted({make_pair(rng) for _ in range(900)})
    rng.shuffle(raw)
    pairs = [[normalizeString(s) for s in pair] for pair in raw]
    pairs = [pair for pair in pairs if filterPair(pair)][:400]
    input_lang, output_lang = Lang("fra"), Lang("eng")
    for pair in pairs:
        input_lang.addSentence(pair[0])
        output_lang.addSentence(pair[1])
    for text in TYPED:
        unknown = [w for w in normalizeString(text).split(" ") if w not in input_lang.word2index]
        assert not unknown, (text, unknown)
    hidden_size, batch_size = 48, 32
    encoder = EncoderRNN(input_lang.n_words, hidden_size).to(device)
    decoder = AttnDecoderRNN(hidden_size, output_lang.n_words).to(device)
    dataloader = get_dataloader(batch_size, input_lang, output_lang, pairs)
    losses = train(dataloader, encoder, decoder, n_epochs=24, learning_rate=0.005)  # 13 batches an epoch
    assert losses[-1] < losses[0] / 3, losses
    encoder.eval()
    decoder.eval()
    return encoder, decoder, input_lang, output_lang, pairs


@pytest.fixture(scope="module")
def model_file(trained, tmp_path_factory):
    encoder, decoder, input_lang, output_lang, _ = trained
    path = tmp_path_factory.mktemp("tutorial") / "model.pt"
    adapted = from_pytorch_tutorial(encoder, decoder, input_lang, output_lang, max_length=MAX_LENGTH)
    adapted.save(str(path))
    # the user's modules stay as they were
    assert not encoder.training and not decoder.training
    return path


def original_teacher_forced(encoder, decoder, src_ids, tgt_ids):
    """The tutorial's forward with a target (teacher forcing), one sentence alone: log-probs and
    attention of MAX_LENGTH steps; decoder inputs SOS, tgt_ids[0], ... (tgt_ids padded with 0 as
    get_dataloader pads)."""
    target = torch.zeros(1, MAX_LENGTH, dtype=torch.long)
    target[0, :len(tgt_ids)] = torch.tensor(tgt_ids[:MAX_LENGTH])
    with torch.no_grad():
        encoder_outputs, encoder_hidden = encoder(torch.tensor([src_ids]))
        log_probs, _, attentions = decoder(encoder_outputs, encoder_hidden, target)
    return log_probs[0], attentions[0], [SOS_token] + target[0, :-1].tolist()


# ------------------------------------------------------------------------------------------------
# (a) Python: the file against the original

def test_file_declares_the_tutorial_model(model_file, trained, tokenize_like_alignscope):
    _, _, input_lang, output_lang, _ = trained
    m = torch.jit.load(str(model_file))
    assert m.format_version == 2
    assert list(m.src_vocab) == [input_lang.index2word[i] for i in range(input_lang.n_words)]
    assert list(m.tgt_vocab) == [output_lang.index2word[i] for i in range(output_lang.n_words)]
    assert json.loads(m.src_specials) == {"bos": 0, "eos": 1}
    assert json.loads(m.tgt_specials) == {"bos": 0, "eos": 1}
    meta = json.loads(m.metadata)
    assert meta["max_length"] == MAX_LENGTH and meta["source_eos"] is True
    assert meta["attention"] == {"kind": "additive", "bias": True, "when": "before_cell"}
    assert meta["encoder"]["cell"] == "gru" and meta["decoder"]["cell"] == "gru"
    assert "tutorial" in meta["converted_from"] and meta["name"]
    # the tokenizer JSON is normalizeString + split(' ') on what users type
    for which in (m.src_tokenizer, m.tgt_tokenizer):
        spec = json.loads(which)
        for text in TYPED + [UNKNOWN, "  Ça  va?! Très bien...  ", "Qu'est-ce que c'est ?"]:
            assert tokenize_like_alignscope(spec, text) == normalizeString(text).split(" ")


def test_teacher_forced_matches_the_original_one_sentence_at_a_time(model_file, trained):
    encoder, decoder, input_lang, output_lang, pairs = trained
    m = torch.jit.load(str(model_file))
    chosen = [pairs[i] for i in (0, 7, 50, 123, 200, 399)]
    sources = [indexesFromSentence(input_lang, p[0]) + [EOS_token] for p in chosen]
    targets = [indexesFromSentence(output_lang, p[1]) + [EOS_token] for p in chosen]
    expected = [original_teacher_forced(encoder, decoder, s, t) for s, t in zip(sources, targets)]
    assert len({len(s) for s in sources}) > 2  # a really padded batch

    def run(rows):
        S = max(len(sources[r]) for r in rows)
        src = torch.zeros(len(rows), S, dtype=torch.long)  # no pad token: 0, relying on src_len
        for b, r in enumerate(rows):
            src[b, :len(sources[r])] = torch.tensor(sources[r])
        src_len = torch.tensor([len(sources[r]) for r in rows])
        with torch.no_grad():
            enc, state, mask, keys = m.encode(src, src_len)
            assert torch.equal(mask, torch.arange(S).unsqueeze(0) < src_len.unsqueeze(1))
            for b, r in enumerate(rows):
                assert torch.all(enc[b, len(sources[r]):] == 0)
            for t in range(MAX_LENGTH):
                y = torch.tensor([expected[r][2][t] for r in rows])
                out = m.step(y, state, enc, keys, mask)
                state = out["state"]
                for b, r in enumerate(rows):
                    n = len(sources[r])
                    log_probs, attn, _ = expected[r]
                    assert out["log_probs"].shape[1] == output_lang.n_words  # SOS kept, nothing masked
                    assert (out["log_probs"][b] - log_probs[t]).abs().max().item() < TOLERANCE
                    assert (out["alpha"][b, :n] - attn[t]).abs().max().item() < TOLERANCE
                    assert torch.all(out["alpha"][b, n:] == 0)
                    assert abs(out["alpha"][b].sum().item() - 1) < 1e-5

    for r in range(len(chosen)):
        run([r])  # each sentence alone, as evaluate() runs it
    run(list(range(len(chosen))))  # and all of them in one padded batch


def test_greedy_matches_evaluate(model_file, trained):
    """What `alignscope-cli translate` does, in Python: greedy on the file, up to max_length steps."""
    encoder, decoder, input_lang, output_lang, _ = trained
    m = torch.jit.load(str(model_file))
    vocab = list(m.tgt_vocab)
    outputs = set()
    for text in TYPED:
        sentence = normalizeString(text)
        words, _ = evaluate(encoder, decoder, sentence, input_lang, output_lang)
        src = torch.tensor([indexesFromSentence(input_lang, sentence) + [EOS_token]])
        got = []
        with torch.no_grad():
            enc, state, mask, keys = m.encode(src, torch.tensor([src.size(1)]))
            y = torch.tensor([SOS_token])
            for _ in range(json.loads(m.metadata)["max_length"]):
                out = m.step(y, state, enc, keys, mask)
                state, y = out["state"], out["log_probs"].argmax(1)
                got.append(vocab[y.item()] if y.item() != EOS_token else "<EOS>")
                if y.item() == EOS_token:
                    break
        assert got == words, text
        outputs.add(" ".join(words))
    assert len(outputs) > 10  # the model learnt something: not one answer for everything
    assert any(not o.endswith("<EOS>") for o in outputs)  # some run to max_length: the cap is exercised


def test_adapter_refuses_what_is_not_the_tutorial_model(trained):
    encoder, decoder, input_lang, output_lang, _ = trained
    with pytest.raises(ValueError, match="pass the Lang objects that built the model"):
        from_pytorch_tutorial(encoder, decoder, output_lang, input_lang)
    with pytest.raises(ValueError, match="max_length"):
        from_pytorch_tutorial(encoder, decoder, input_lang, output_lang, max_length=0)
    plain = nn.Module()
    plain.embedding, plain.gru, plain.out = decoder.embedding, decoder.gru, decoder.out
    with pytest.raises(ValueError, match="no `attention`"):
        from_pytorch_tutorial(encoder, plain, input_lang, output_lang)


def test_save_checks_against_the_original_in_eval_mode_and_leaves_the_modes(tmp_path):
    torch.manual_seed(1)
    input_lang, output_lang = Lang("fra"), Lang("eng")
    input_lang.addSentence("le chat mange")
    output_lang.addSentence("the cat eats")
    encoder, decoder = EncoderRNN(input_lang.n_words, 8, dropout_p=0.5), AttnDecoderRNN(8, output_lang.n_words, 0.5)
    encoder.train()  # still training: the check must not see dropout, nor switch the modules to eval
    decoder.train()
    from_pytorch_tutorial(encoder, decoder, input_lang, output_lang).save(str(tmp_path / "ok.pt"))
    assert encoder.training and decoder.training
    broken = from_pytorch_tutorial(encoder, decoder, input_lang, output_lang)
    broken.module.out.bias.data[0] = float("nan")  # a converted model giving NaN is not written
    with pytest.raises(ValueError, match="not written: the converted model differs from the original by nan"):
        broken.save(str(tmp_path / "broken.pt"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.pt"]


# ------------------------------------------------------------------------------------------------
# (b) The AlignScope CLI on the file

def test_cli_inspect(run_cli, model_file):
    run_cli("inspect", "--model", model_file)


def test_cli_translate_gives_evaluate(run_cli, model_file, trained, tmp_path):
    encoder, decoder, input_lang, output_lang, _ = trained
    expected = []
    for text in TYPED:
        words, _ = evaluate(encoder, decoder, normalizeString(text), input_lang, output_lang)
        expected.append(" ".join(w for w in words if w != "<EOS>"))
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("".join(t + "\n" for t in TYPED), encoding="utf-8")
    run_cli("translate", "--model", model_file, "-i", source, "-o", output)
    assert output.read_text(encoding="utf-8").split("\n")[:-1] == expected


def test_cli_translate_refuses_an_unknown_word(run_cli, model_file, tmp_path):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text(UNKNOWN + "\n", encoding="utf-8")
    r = run_cli("translate", "--model", model_file, "-i", source, "-o", output, check=False)
    assert r.returncode != 0
    assert "banane" in r.stderr, r.stderr


def test_cli_gradient_attributions_work_on_the_adapted_model(gradient_attributions_work, model_file, tmp_path):
    gradient_attributions_work(model_file, [("L'élève célèbre mange le gâteau.", "The famous pupil eats the cake."),
                                            ("Mon frère préfère le livre?", "My brother prefers the book?")], tmp_path)


def test_cli_trace_matches_the_original(run_cli, model_file, trained, tmp_path):
    encoder, decoder, input_lang, output_lang, _ = trained
    lines = [("L'élève célèbre mange le gâteau.", "The famous pupil eats the cake."),
             ("Le chat ROUGE ne voit pas la clé !", "The red cat does not see the key!"),
             ("Mon frère préfère le livre?", "My brother prefers the book?"),
             ("La reine n'aime pas l'échelle.", "The queen does not like the ladder."),
             ("Le médecin prend la pomme jaune", "The doctor takes the yellow apple")]
    source, output = tmp_path / "pairs.txt", tmp_path / "out.jsonl"
    source.write_text("".join(f"{s} ||| {t}\n" for s, t in lines), encoding="utf-8")
    run_cli("trace", "--model", model_file, "-i", source, "-o", output)
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(records) == len(lines)
    for (s, t), rec in zip(lines, records):
        src_ids = indexesFromSentence(input_lang, normalizeString(s)) + [EOS_token]
        tgt_ids = indexesFromSentence(output_lang, normalizeString(t)) + [EOS_token]
        assert rec["source_ids"] == src_ids
        assert rec["source_tokens"][:-1] == normalizeString(s).split(" ")  # the last: how eos is shown
        assert rec["target_ids"] in (tgt_ids, tgt_ids[:-1])  # with or without the appended eos
        log_probs, attn, inputs = original_teacher_forced(encoder, decoder, src_ids, tgt_ids)
        assert len(rec["steps"]) == len(tgt_ids)
        for k, step in enumerate(rec["steps"]):
            assert step["y_prev"] == inputs[k]
            assert len(step["log_probs"]) == output_lang.n_words and len(step["alpha"]) == len(src_ids)
            assert np.abs(np.array(step["log_probs"]) - log_probs[k].numpy()).max() < TOLERANCE
            assert np.abs(np.array(step["alpha"]) - attn[k].numpy()).max() < TOLERANCE


def test_tokenizers_given_are_written(trained, tokenizer_options_work):
    encoder, decoder, input_lang, output_lang, _ = trained
    tokenizer_options_work(lambda **t: from_pytorch_tutorial(encoder, decoder, input_lang, output_lang,
                                                             max_length=MAX_LENGTH, **t))


def test_live_page_export(live_page_export_works, model_file):
    live_page_export_works(model_file)
