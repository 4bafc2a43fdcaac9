"""Other libraries' sentence objects as evalcore input (docs/api.md): spaCy ``Doc``s and ``conllu``
TokenLists.

Neither library is imported here: a spaCy ``Doc`` (or sentence ``Span``) is recognised by its
``sents`` and ``vocab``, a ``conllu`` TokenList by its ``serialize()`` (it then goes through
evalcore's own CoNLL-U reader, with its checks and limits).  spaCy is therefore touched only
when a user hands over one of its objects, and never installed for it.

:func:`spacy_head` is the one place where a spaCy token's head becomes a CoNLL head (0 = root,
else 1-based within the sentence); the experiments that parse with spaCy use it too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, cast

from evalcore.errors import InputFormatError
from evalcore.trees import DepTree, Token

__all__ = ["SpacyToken", "from_spacy", "is_spacy_doc", "is_token_list", "spacy_head", "spacy_label"]


class SpacyToken(Protocol):
    """What is read of a ``spacy.tokens.Token``."""

    @property
    def i(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def lemma_(self) -> str: ...
    @property
    def pos_(self) -> str: ...
    @property
    def tag_(self) -> str: ...
    @property
    def dep_(self) -> str: ...
    @property
    def whitespace_(self) -> str: ...
    @property
    def head(self) -> SpacyToken: ...


class _SpacySpan(Protocol):
    """A sentence of a ``Doc`` (``doc.sents``): its tokens and the index of its first one."""

    @property
    def start(self) -> int: ...
    def __iter__(self) -> Iterator[SpacyToken]: ...


def is_spacy_doc(obj: object) -> bool:
    """A spaCy ``Doc`` or ``Span`` (duck-typed: ``sents`` and ``vocab``)."""
    return hasattr(obj, "sents") and hasattr(obj, "vocab") and not isinstance(obj, str | bytes)


def is_token_list(obj: object) -> bool:
    """A ``conllu`` TokenList (duck-typed: a ``serialize()`` method)."""
    return callable(getattr(obj, "serialize", None))


def spacy_head(token: SpacyToken, start: int = 0) -> int:
    """The CoNLL head of ``token``: 0 for a root (spaCy: its own head), else the 1-based position
    of its head in the sentence starting at token ``start`` of the ``Doc``."""
    return 0 if token.head.i == token.i else token.head.i - start + 1


def spacy_label(token: SpacyToken, root: str = "root") -> str:
    """The relation of ``token``: ``root`` for a root (spaCy's own root label varies by model)."""
    return root if token.head.i == token.i else token.dep_


def _field(value: str) -> str:
    return value if value else "_"


def from_spacy(doc: object, *, root: str = "root", name: str = "<spacy>") -> list[DepTree]:
    """One :class:`DepTree` per sentence of a parsed spaCy ``Doc`` (or ``Span``): form, lemma,
    ``pos_`` as UPOS, ``tag_`` as XPOS, head and relation (:func:`spacy_head`, :func:`spacy_label`),
    ``SpaceAfter=No`` where no whitespace follows."""
    has_annotation = getattr(doc, "has_annotation", None)
    if callable(has_annotation) and not has_annotation("DEP"):
        raise InputFormatError("the spaCy Doc has no dependency parse (run a parser on it first)", file=name)
    out: list[DepTree] = []
    for k, sent in enumerate(cast(Iterable[_SpacySpan], getattr(doc, "sents", ())), start=1):
        try:
            out.append(_spacy_sentence(sent, k, root, name))
        except AttributeError as exc:  # not a parsed spaCy object after all: one typed error
            missing = f"'{exc.name}'" if exc.name else "an attribute"
            raise InputFormatError(
                f"sentence {k} of the spaCy Doc: a token or sentence has no {missing} (expected spaCy "
                "tokens with i, text, lemma_, pos_, tag_, dep_, whitespace_ and head, in sentences "
                "with start)",
                file=name,
                sentence=str(k),
            ) from None
    return out


def _spacy_sentence(sent: _SpacySpan, k: int, root: str, name: str) -> DepTree:
    start = sent.start
    words = list(sent)
    tokens = []
    for t in words:
        head = spacy_head(t, start)
        if not 0 <= head <= len(words):
            raise InputFormatError(
                f"token {t.i - start + 1} of sentence {k} has its head outside the sentence",
                file=name,
                sentence=str(k),
            )
        tokens.append(
            Token(
                id=t.i - start + 1,
                form=t.text,
                lemma=_field(t.lemma_),
                upos=_field(t.pos_),
                xpos=_field(t.tag_),
                head=head,
                deprel=_field(spacy_label(t, root)),
                misc="_" if t.whitespace_ else "SpaceAfter=No",
            )
        )
    text = "".join(t.form + ("" if t.misc == "SpaceAfter=No" else " ") for t in tokens).rstrip()
    comments = (f"# sent_id = {k}", "# text = " + " ".join(text.split()))
    return DepTree(tuple(tokens), sent_id=str(k), text=text, comments=comments)
