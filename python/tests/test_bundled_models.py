"""The bundled models as a user meets them: each file names itself as its file does and has a card,
a declared reverse model is a file beside it, and every model a shipped lesson opens is there (a
renamed model must not leave a lesson, a card or `align --links agreement-…` pointing at nothing)."""

import json

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
