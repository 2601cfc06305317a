"""The bundled models as a user meets them: each file names itself as its file does and has a card,
a declared reverse model is a file beside it, and every model a shipped lesson opens is there (a
renamed model must not leave a lesson, a card or `align --links agreement-…` pointing at nothing)."""

import fnmatch
import json
import re

import pytest
import torch


def bundled(repo_root):
    return sorted((repo_root / "models").glob("*.pt"))


def metadata(path):
    return json.loads(torch.jit.load(str(path), map_location="cpu").metadata)


def test_each_bundled_model_names_itself_as_its_file_and_has_a_card(repo_root):
    models = bundled(repo_root)
    assert models
    for path in models:
        meta = metadata(path)
        assert meta["name"] == path.stem, path
        assert (path.parent / f"{path.stem}.md").is_file(), f"{path.name} has no card"
        reverse = meta.get("reverse_model")
        if reverse is not None:
            assert (path.parent / reverse).is_file(), f"{path.name} declares the reverse model '{reverse}', not in models/"


def test_the_default_reads_the_word_it_wrote_and_the_lessons_bahdanau_model_does_not(repo_root):
    # The default's conditional decoder is what its card and the README describe; lessons 1-6 teach
    # e = v^T tanh(W s_{t-1} + U h) on a model whose attention is computed that way.
    assert metadata(repo_root / "models" / "en-fr-subword.pt")["architecture"]["decoder"] == "conditional"
    assert metadata(repo_root / "models" / "en-fr-subword-bahdanau.pt")["architecture"].get("decoder", "bahdanau") == "bahdanau"


@pytest.mark.parametrize("key", ["model", "compare"])
def test_every_model_a_shipped_lesson_opens_is_bundled(repo_root, key):
    lessons = sorted((repo_root / "resources" / "lessons").glob("*.json"))
    assert lessons
    names = set()
    for lesson in lessons:
        for page in json.loads(lesson.read_text(encoding="utf-8"))["pages"]:
            if page.get(key):
                names.add((lesson.name, page[key]))
    assert names
    for lesson, name in names:
        path = repo_root / "models" / (name if name.endswith(".pt") else f"{name}.pt")
        assert path.is_file(), f"{lesson} opens '{name}', which is not a bundled model"


def _strings(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


# A path that starts at the root, anywhere in a string ("--corpus /work/data/x.tsv"): the machine a
# model was trained on is nobody's business and names nothing on the user's machine.
ABSOLUTE_PATH = re.compile(r"(?:^|[\s=:'\"(])/(?:[\w.+-]+/)+[\w.+-]*")


def test_no_bundled_model_metadata_holds_an_absolute_path(repo_root):
    models = bundled(repo_root) + sorted((repo_root / "models").glob("*/*.pt"))
    assert models
    found = [(path.name, m.group(0).strip()) for path in models for s in _strings(metadata(path)) for m in ABSOLUTE_PATH.finditer(s)]
    assert not found, f"absolute paths in model metadata: {found[:5]}"
    assert ABSOLUTE_PATH.search("train --corpus /work/shared/data/fra-eng.txt --name en-fr")


def test_the_package_carries_a_copyright_file_with_the_datas_licences(repo_root):
    copyright = (repo_root / "resources" / "packaging" / "copyright").read_text(encoding="utf-8")
    assert copyright.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
    for line in ("License: CC-BY-2.0-FR", "Attribution: www.manythings.org/anki and tatoeba.org", "License: Europarl",
                 "https://creativecommons.org/licenses/by/2.0/fr/legalcode"):
        assert line in copyright, line
    # Every bundled model is covered by a Files: stanza naming it (or a pattern matching it).
    patterns = [p for line in copyright.splitlines() if line.startswith("Files:") for p in line.split()[1:]]
    for path in bundled(repo_root):
        rel = f"models/{path.name}"
        assert any(fnmatch.fnmatch(rel, p) for p in patterns if p != "*"), f"{rel} has no Files: stanza"
    packaging = (repo_root / "cmake" / "Packaging.cmake").read_text(encoding="utf-8")
    assert "resources/packaging/copyright DESTINATION share/doc/alignscope" in packaging


# The lower-case letters a learner of each language meets at once (issue 60).
COMMON_LETTERS = {"de": "ßäöü", "fr": "éèàçêâîôûëïœ", "en": ""}


def test_each_card_names_the_common_letters_its_vocabulary_lacks(repo_root):
    """A model that declares its languages says in its card which of their common letters no piece
    (or word) of its vocabularies holds: en-de's ß ä ö ü are byte pieces. The card's line
    'Letters without a piece: …' is checked against the vocabularies themselves, and no vocabulary
    holds a Hangul syllable (the card says so)."""
    from alignscope.decoding import LoadedModel
    for path in bundled(repo_root):
        model = LoadedModel(str(path))
        languages = (model.metadata.get("source_language"), model.metadata.get("target_language"))
        if not all(languages):
            continue
        missing, hangul = [], False
        for tokenizer, vocabulary, language in ((model.src_tokenizer, model.src_vocab, languages[0]),
                                                (model.tgt_tokenizer, model.tgt_vocab, languages[1])):
            if tokenizer.kind == "sentencepiece":
                processor = tokenizer.processor
                vocabulary = [processor.id_to_piece(i) for i in range(processor.get_piece_size())]
            characters = set("".join(vocabulary))
            missing += [c for c in COMMON_LETTERS[language] if c not in characters and c not in missing]
            hangul = hangul or any("\uac00" <= c <= "\ud7a3" for c in characters)
        card = (path.parent / f"{path.stem}.md").read_text(encoding="utf-8")
        said = re.search(r"^Letters without a piece: ([^.]*)\.", card, re.MULTILINE)
        assert said, f"{path.stem}.md has no line 'Letters without a piece: …'"
        assert said.group(1) == (" ".join(missing) or "none"), f"{path.stem}.md: its vocabularies lack {missing or 'none'}"
        assert not hangul and "Hangul" in card[said.start():] or "<unk>" in card[said.start():], path.stem
