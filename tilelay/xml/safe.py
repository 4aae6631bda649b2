"""A hardened XML parser for files users give us.

No DTD is loaded, no entity is declared, resolved or expanded, nothing is fetched from the
network, and files larger than :data:`MAX_BYTES` are refused. Errors are
:class:`~tilelay.errors.XMLFormatError` naming the file and line, in words rather than in
libxml2's.

The document is decoded here, before libxml2 sees it: its encoding is found as the XML
specification says (a byte order mark, the first bytes of UTF-16 or UTF-32 text, else the
declaration's ``encoding``, else UTF-8), the text is checked for entity declarations, and
libxml2 is given the same text as UTF-8. So a declaration in UTF-16 (or UTF-7, or any
encoding the bytes would hide it in) is refused like one in UTF-8.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from lxml import etree

from tilelay import limits
from tilelay.errors import XMLFormatError
from tilelay.files import read_bytes

__all__ = ["MAX_BYTES", "MAX_DEPTH", "element_line", "parse_xml", "whole_attribute"]

#: The largest XML input read, in bytes.
MAX_BYTES = 32 * 1024 * 1024
#: How deep elements may nest (libxml2's own limit without its "huge" option).
MAX_DEPTH = 256

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_PATTERNS: tuple[tuple[bytes, str], ...] = (
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00<\x00?", "utf-16-be"),
    (b"<\x00?\x00", "utf-16-le"),
)
_DECLARED = re.compile(rb"<\?xml[^>]{0,200}?encoding\s*=\s*([\"'])([A-Za-z][A-Za-z0-9._-]{0,40})\1")
_DECLARATION = re.compile(r"<\?xml\s[^>]*?\?>")
_WIDE = ("utf_16", "utf_32")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=False,
        encoding="utf-8",
    )


def _line_at(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _decode(raw: bytes, source: str | None) -> str:
    """The text of the XML document ``raw`` in the encoding it is written in."""
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), None)
    if encoding is None:
        encoding = next((enc for head, enc in _PATTERNS if raw.startswith(head)), None)
    if encoding is None:
        m = _DECLARED.match(raw)
        declared = m.group(2).decode("ascii") if m else "utf-8"
        try:
            name = codecs.lookup(declared).name
        except LookupError:
            raise XMLFormatError(
                f"unsupported encoding {declared!r}: expected UTF-8, UTF-16 or another encoding "
                "Python knows",
                source=source,
                line=1,
            ) from None
        if name.replace("-", "_").startswith(_WIDE):
            raise XMLFormatError(
                f"the declaration says {declared} but the text is not {declared} "
                "(no byte order mark, and single-byte characters)",
                source=source,
                line=1,
            )
        encoding = name
    try:
        text = raw.decode(encoding)
    except LookupError:  # a codec that is not a text encoding (base64, rot13…)
        raise XMLFormatError(
            f"unsupported encoding {encoding!r}: not a text encoding", source=source, line=1
        ) from None
    except UnicodeDecodeError as err:
        line = _line_at(raw[: err.start].decode(encoding, "replace"), err.start)
        raise XMLFormatError(
            f"not {encoding.upper()} text: invalid bytes at byte {err.start + 1}",
            source=source,
            line=line,
        ) from None
    return text.removeprefix("\ufeff")


# libxml2's wording, and what we say instead
_PLAIN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r".*Excessive depth.*"), f"elements nested too deeply: at most {MAX_DEPTH} levels"),
    (re.compile(r".*(?:huge|Huge|XML_PARSE_HUGE).*"), "a text, name or attribute is too large"),
    (re.compile(r"^xml\w*: ?"), ""),
    (re.compile(r"\bxmlChar\b"), "character"),
    (re.compile(r"^internal error: ?"), ""),
    (re.compile(r"^attributes construct error$"), "an element's attributes are malformed or cut"),
    (re.compile(r"^Couldn't find end of Start Tag (\S+).*"), r"the start tag <\1> is not closed"),
    (re.compile(r"^Premature end of data in tag (\S+).*"), r"the file ends inside <\1>"),
    (
        re.compile(r"^Opening and ending tag mismatch: (\S+)(?: line \d+)? and (\S+).*"),
        r"<\1> is closed by </\2>",
    ),
    (re.compile(r"^Extra content at the end of the document$"), "more after the root element"),
    (re.compile(r"^Start tag expected, '<' not found$"), "no element: the text is not XML"),
)


def _plain(message: str) -> str:
    msg = re.sub(r",? line \d+(, column \d+)?$", "", message.strip())
    for pattern, replacement in _PLAIN:
        msg = pattern.sub(replacement, msg)
    return msg.strip() or "malformed XML"


def parse_xml(data: bytes | str | Path, *, source: str | None = None) -> etree._Element:
    """Parse XML from bytes, text or a file path and return the root element.

    Raises :class:`XMLFormatError` (with file and line) for malformed XML, for documents that
    declare entities (entity expansion and external entities are refused outright, in any
    encoding), for encodings Python does not know, and for input over :data:`MAX_BYTES`.
    """
    if isinstance(data, Path):
        source = source or str(data)
        raw: bytes | str = read_bytes(data, limit=MAX_BYTES, what="XML file", error=XMLFormatError)
    else:
        raw = data
    if len(raw) > MAX_BYTES:
        raise XMLFormatError(
            f"input is {len(raw):,} bytes, larger than the {MAX_BYTES:,} bytes tilelay reads",
            source=source,
        )
    text = raw.removeprefix("\ufeff") if isinstance(raw, str) else _decode(raw, source)
    entity = text.find("<!ENTITY")
    if entity >= 0:
        raise XMLFormatError(
            "entity declarations are not allowed (external entities and entity expansion are "
            "refused for safety)",
            source=source,
            line=_line_at(text, entity),
        )
    declaration = _DECLARATION.match(text)
    if declaration is not None:  # libxml2 reads the UTF-8 text below, whatever it declared
        text = "\n" * declaration.group().count("\n") + text[declaration.end() :]
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise XMLFormatError(
            f"character U+{ord(text[err.start]):04X} is not allowed in XML",
            source=source,
            line=_line_at(text, err.start),
        ) from None
    try:
        root = etree.fromstring(encoded, _parser())
    except etree.XMLSyntaxError as err:
        line = err.lineno if err.lineno else None
        raise XMLFormatError(
            f"malformed XML: {_plain(str(err.msg or ''))}", source=source, line=line
        ) from None
    if root is None:
        raise XMLFormatError("empty XML document", source=source)
    return root


def element_line(element: etree._Element) -> int | None:
    """The 1-based source line of an element, if known."""
    line: object = element.sourceline
    return line if isinstance(line, int) else None


def whole_attribute(
    element: etree._Element,
    name: str,
    low: int,
    high: int,
    *,
    source: str | None,
    about: str = "",
    what: str = "",
) -> int:
    """The whole number in attribute ``name`` of ``element``, written in ASCII digits and from
    ``low`` to ``high``; else :class:`~tilelay.errors.XMLFormatError` naming the element's
    line. ``about`` opens the message (``"tile 57: "``), ``what`` closes it (what the number
    is for)."""
    raw = element.get(name)
    tail = f" ({what})" if what else ""
    line = element_line(element)
    if raw is None:
        raise XMLFormatError(
            f"{about}<{element.tag}> has no {name!r} attribute{tail}", source=source, line=line
        )
    value = limits.whole(raw, low, high)
    if value is None:
        raise XMLFormatError(
            f"{about}<{element.tag}> {name}={limits.shown(raw)} is not a whole number from "
            f"{low:,} to {high:,}{tail}",
            source=source,
            line=line,
        )
    return value
