"""alignscope.show(): one decoding as AlignScope's interactive page, inline in Jupyter or saved as one
self-contained HTML file. The page is the one renderer's (resources/web/, shipped in the package as
alignscope/web); the data is the alignment JSON of page_data.py, which `export --format html` writes too."""

import html
import json
import math
import os
from typing import Any, Dict, List, Optional

from .decoding import LoadedModel, decode_within
from .files import path_name, write_text
from .page_data import page_data, source_file_name
from .text import is_blank

WEB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
ATTRIBUTIONS = ("grad-x-input", "integrated-gradients", "occlusion", "attention-x-occlusion")


def web_file(name: str) -> str:
    """One of the renderer's files, as the package ships it."""
    path = os.path.join(WEB_DIR, name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise OSError(f"the page's renderer file '{path}' cannot be read ({e.strerror}): the package was installed "
                      "without its web files (resources/web/)") from None


def _finite(value: Any) -> Any:
    """`value` with every non-finite number as None: the JSON null nlohmann::json writes for them in the
    C++ page (PageData.cpp), where Python's NaN/Infinity is no JSON and leaves the page blank."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def script_safe(data: Dict[str, Any]) -> str:
    """JSON text that cannot end the <script> element holding it, nor start markup (PageData::scriptSafe).
    Never NaN or Infinity (a non-finite number is null, as in the C++ page)."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError:  # only a -inf log-probability gets here: models with NaN or +inf are refused at load
        text = json.dumps(_finite(data), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u0085", "\\u0085"), ("\u2028", "\\u2028"),
                        ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def languages() -> List[str]:
    """The page's languages: one message catalogue each in web/messages/ (HtmlPage::languages)."""
    return sorted(name[:-5] for name in os.listdir(os.path.join(WEB_DIR, "messages")) if name.endswith(".json"))


def messages(language: str) -> Dict[str, str]:
    """The page's message catalogue in `language` (en, ko, de, fr)."""
    if language not in languages():
        raise ValueError(f"the page has no messages in the language {language!r}: choose one of {', '.join(languages())}")
    return json.loads(web_file(f"messages/{language}.json"))


def _escape(text: str) -> str:
    return html.escape(text, quote=True).replace("&#x27;", "&#39;")  # LessonMarkup::escape's entities


def render(data: Dict[str, Any], title: str, language: str = "en") -> str:
    """The page: the template's {{TITLE}}, {{LANG}}, {{CSS}}, {{JS}}, {{MESSAGES}}, {{NOSCRIPT}} and
    {{DATA}} filled (HtmlPage::render); its controls and Step explained speak `language`."""
    catalogue = messages(language)
    values = {"TITLE": _escape(title), "LANG": language, "CSS": web_file("page.css"), "JS": web_file("page.js"),
              "MESSAGES": script_safe(catalogue), "NOSCRIPT": _escape(catalogue.get("noscript", "")),
              "DATA": script_safe(data)}
    out, at, page = [], 0, web_file("page.html")
    while True:
        start = page.find("{{", at)
        end = page.find("}}", start) if start >= 0 else -1
        if end < 0:
            break
        name = page[start + 2:end]
        out.append(page[at:start])
        out.append(values.get(name, page[start:end + 2]))
        at = end + 2
    out.append(page[at:])
    return "".join(out)


# The frame's height set to its page's (the html element's, which is the page's own height, not
# the frame's) when it loads and whenever the page's size changes, by a ResizeObserver of the
# page's window. It runs in the notebook, so the page's CSP stays as strict as a saved file's.
FIT_FRAME = ("var f=this;try{var d=f.contentDocument.documentElement,"
             "fit=function(){f.style.height=Math.ceil(d.getBoundingClientRect().height)+'px'};"
             "fit();new f.contentWindow.ResizeObserver(fit).observe(d)}catch(e){}")


class Page:
    """A decoding shown as AlignScope's page: inline in a notebook (_repr_html_), or .save(path)."""

    def __init__(self, data: Dict[str, Any], title: str, exact: Optional[Dict[str, Any]] = None,
                 language: str = "en", live_model: Optional[str] = None) -> None:
        self.data = data    # what the page reads: display numbers rounded (resources/web/page.schema.json)
        self.exact = exact  # the same with the engine's exact numbers, as `export --format json` writes them
        self.title = title
        self.language = language  # of its controls, headings and Step explained (languages())
        self.live_model = live_model  # show(live=True): save() puts this model file's live scripts beside the page

    def html(self) -> str:
        return render(self.data, self.title, self.language)

    def save(self, path: "str | os.PathLike[str]") -> str:
        """Writes the self-contained page (no file beside it, no request to any server) by the package's
        one rule for files it writes (files.atomic_write); returns the path."""
        name = path_name(path, "the page's path")
        text = self.html()
        if self.live_model:  # refused before the page is written where the live page cannot be made
            from . import live_page, onnx_export
            lacking = live_page.missing(live_page.default_runtime_dir())
            if lacking:
                raise onnx_export.ExportError("show(live=True): a live page needs " + "; ".join(lacking))
        try:
            write_text(name, text, what="page")
        except OSError as e:
            if e.strerror is None:  # files.py's own message, naming the page already
                raise
            raise OSError(f"cannot write the page '{name}': {e.strerror}") from None
        if self.live_model:
            from . import live_page
            live_page.make_live([(name, self.live_model)])
        return name

    def _repr_html_(self) -> str:
        # A live page's model is in files beside a saved page: a notebook shows the page as recorded
        # (the frame's srcdoc has no folder to load them from); save() writes the live one.
        # The page in an iframe of its own: its keys (arrows, Home, End) and styles stay out of the
        # notebook's, and it is the very document save() writes. The frame is as tall as the page and
        # follows it as it grows or shrinks (a step, a hypothesis chosen, a panel opened): FIT_FRAME.
        return (f'<iframe class="alignscope-notebook" title="{html.escape(self.title, quote=True)}" '
                f'srcdoc="{html.escape(self.html(), quote=True)}" '
                'style="width:100%;height:720px;border:1px solid #ccc;display:block" '
                f'onload="{html.escape(FIT_FRAME, quote=True)}"></iframe>')

    def __repr__(self) -> str:
        return f"<alignscope page: {self.title}>"


def show(model: Any, source: str, target: Optional[str] = None, beam: Optional[int] = None,
         method: str = "attention", words: bool = False, max_length: int = 0, time_limit: float = 30,
         language: str = "en", live: bool = False) -> Page:
    """The decoding of `source` as AlignScope's interactive page: greedy, or `beam` search's best
    hypothesis, or teacher-forced along `target`. `model`: a model file's path, or what an adapter
    returns (alignscope.from_d2l(...) and the others). words=True opens on the word view.
    time_limit: seconds the model's encoding or one step may take (alignscope-cli's --time-limit;
    0: none): past it the call is refused naming the model and the step. language: the page's
    controls, headings and Step explained in en, ko, de or fr (the tokens stay the model's).
    live=True: save() writes a live page (the model runs in the browser: docs/live-page.md), which
    needs a model file's path."""
    if method != "attention":
        if method in ATTRIBUTIONS:
            raise NotImplementedError(f"show(method={method!r}): attributions are computed by the C++ engine; "
                                      f"`alignscope-cli export --format html --heatmap {method}` writes that page. "
                                      "show() draws attention")
        raise ValueError(f"unknown method {method!r}: attention (show()), or {', '.join(ATTRIBUTIONS)} "
                         "(alignscope-cli export --format html --heatmap)")
    if not isinstance(source, str) or is_blank(source):
        raise ValueError("show() needs a source sentence (this one has nothing visible)")
    messages(language)  # an unknown language is refused before the decoding
    if live and not isinstance(model, (str, os.PathLike)):
        raise ValueError("show(live=True) needs the model as a file's path: the live page carries the model file's own "
                         "code, exported to ONNX (an adapter's model: save it with alignscope.export first)")
    loaded = model if isinstance(model, LoadedModel) else LoadedModel(model)
    decoding = decode_within(time_limit, loaded, source, target=target, beam=beam, max_length=max_length)
    file = source_file_name(model)
    title = f"AlignScope: {source}"  # as export --format html titles its pages
    return Page(page_data(decoding, words=words, file=file), title,
                exact=page_data(decoding, rounded=None, words=words, file=file), language=language,
                live_model=os.fspath(model) if live else None)
