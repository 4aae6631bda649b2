"""A hardened XML parser for files users give us.

No DTD is loaded, no entity is resolved or expanded, nothing is fetched from the network, and
files larger than :data:`MAX_BYTES` are refused. Errors are :class:`~tilelay.errors.XMLFormatError`
naming the file and line.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from tilelay.errors import XMLFormatError

#: The largest XML input read, in bytes.
MAX_BYTES = 32 * 1024 * 1024


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=False,
    )


def parse_xml(data: bytes | str | Path, *, source: str | None = None) -> etree._Element:
    """Parse XML from bytes, text or a file path and return the root element.

    Raises :class:`XMLFormatError` (with file and line) for malformed XML, for documents that
    declare entities (entity expansion and external entities are refused outright), and for
    input over :data:`MAX_BYTES`.
    """
    if isinstance(data, Path):
        source = source or str(data)
        try:
            size = data.stat().st_size
        except OSError as err:
            raise XMLFormatError(f"cannot read file: {err.strerror}", source=source) from None
        if size > MAX_BYTES:
            raise XMLFormatError(
                f"file is {size} bytes, larger than the {MAX_BYTES} bytes tilelay reads",
                source=source,
            )
        raw = data.read_bytes()
    elif isinstance(data, str):
        raw = data.encode("utf-8")
    else:
        raw = data
    if len(raw) > MAX_BYTES:
        raise XMLFormatError(
            f"input is {len(raw)} bytes, larger than the {MAX_BYTES} bytes tilelay reads",
            source=source,
        )
    if b"<!ENTITY" in raw or b"<!entity" in raw:
        line = raw[: raw.find(b"<!") + 1].count(b"\n") + 1 if b"<!" in raw else None
        raise XMLFormatError(
            "entity declarations are not allowed (external entities and entity expansion are "
            "refused for safety)",
            source=source,
            line=line,
        )
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        root = etree.fromstring(raw, _parser())
    except etree.XMLSyntaxError as err:
        line = err.lineno if err.lineno else None
        msg = str(err.msg) if err.msg else "malformed XML"
        # lxml appends ", line N, column M" to some messages; keep ours clean
        msg = msg.split(", line ")[0]
        raise XMLFormatError(f"malformed XML: {msg}", source=source, line=line) from None
    if root is None:
        raise XMLFormatError("empty XML document", source=source)
    return root


def element_line(element: etree._Element) -> int | None:
    """The 1-based source line of an element, if known."""
    line: object = element.sourceline
    return line if isinstance(line, int) else None
