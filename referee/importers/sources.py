"""Reading the files an import names, safely: limits, gzip, XML and the files a map refers to.

- :func:`read_input` reads the file the user named (a regular file: a FIFO or a
  device is refused at once; at most :data:`MAX_INPUT_BYTES`), and unpacks it if it
  is gzip-compressed (``.tmx.gz``, as Debian ships Tiled's examples), refusing more
  than :data:`MAX_INPUT_BYTES` unpacked.
- :func:`check_xml` refuses XML with an inline document type definition or an
  entity declaration (entities could expand without bound, or read other files; an
  external ``<!DOCTYPE map SYSTEM "…">`` as old Tiled wrote is read, never
  fetched), nesting deeper than
  :data:`MAX_XML_DEPTH` or more than :data:`MAX_XML_ELEMENTS` elements, before any
  library parses it; then it parses it.
- :class:`Folder` is where a file's references may lead: a tileset, template or
  picture a map names must resolve (links followed) inside the map's folder, or the
  ``root`` the user gave, and be a regular file. A reference that leads out, or is
  missing, is one problem naming it.

Notes
-----
Linear in the size of the input.
"""

from __future__ import annotations

import os
import stat
import zlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET
from xml.parsers import expat

from ..safeio import read_bytes
from .result import ImportRefused

#: Largest file an import reads (bytes), packed or unpacked.
MAX_INPUT_BYTES = 256 * 1024 * 1024
#: Deepest element nesting of an XML input (TMX, TSX, GraphML).
MAX_XML_DEPTH = 100
#: Most elements of an XML input.
MAX_XML_ELEMENTS = 5_000_000

_GZIP_MAGIC = b"\x1f\x8b"


def unpack(data: bytes, where: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """``data`` unpacked if it is gzip-compressed, at most ``limit`` bytes."""
    if not data.startswith(_GZIP_MAGIC):
        return data
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = d.decompress(data, limit + 1)
    except zlib.error as exc:
        raise ImportRefused(f"corrupt gzip data ({exc})", code="bad_file", location=where) from None
    if len(out) > limit:
        raise ImportRefused(f"unpacks to more than {limit} bytes", code="too_large", location=where)
    return out


def read_input(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the file to import (unpacked if gzip-compressed)."""
    return unpack(read_bytes(path, error=ImportRefused, max_bytes=limit), str(path), limit)


def check_xml(data: bytes, where: str) -> ET.Element:
    """Parse XML that has no document type declaration and stays within the limits.

    Raises
    ------
    ImportRefused
        Naming ``where`` and the line: a DOCTYPE or entity declaration, nesting over
        :data:`MAX_XML_DEPTH`, over :data:`MAX_XML_ELEMENTS` elements, malformed XML.
    """
    parser = expat.ParserCreate()
    depth = [0, 0]  # current depth, elements seen

    def refuse(message: str, code: str) -> None:
        raise ImportRefused(
            f"{message} at line {parser.CurrentLineNumber}", code=code, location=where
        )

    def doctype(_name: Any, _system: Any, _public: Any, internal: Any) -> None:
        if internal:  # <!DOCTYPE map SYSTEM "…dtd"> (old Tiled) is read; an inline DTD is not
            refuse("XML with an inline document type definition is refused (entities)", "bad_xml")

    def entity(*_: Any) -> None:
        refuse("XML that declares entities is refused", "bad_xml")

    def start(*_: Any) -> None:
        depth[0] += 1
        depth[1] += 1
        if depth[0] > MAX_XML_DEPTH:
            refuse(f"nested deeper than {MAX_XML_DEPTH} levels", "too_deep")
        if depth[1] > MAX_XML_ELEMENTS:
            refuse(f"more than {MAX_XML_ELEMENTS} elements", "too_large")

    def end(*_: Any) -> None:
        depth[0] -= 1

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ImportRefused(f"malformed XML ({exc})", code="bad_xml", location=where) from None
    return ET.fromstring(data)


class Folder:
    """Where the files a map refers to may be read from (see the module's notes).

    Parameters
    ----------
    base : Path
        The folder of the file being imported (references are relative to it).
    root : Path, optional
        The folder references must stay inside (default: ``base``).
    """

    def __init__(self, base: Path, root: Path | None = None) -> None:
        self.base = base
        self.root = Path(os.path.realpath(root if root is not None else base))

    def resolve(self, ref: str, relative_to: Path | None = None) -> Path:
        """The file ``ref`` names (relative to ``relative_to``, default the base folder),
        checked: inside the root, a regular file; a missing ``X`` is read from ``X.gz``
        when that exists (Debian compresses the files of its documentation).

        Raises
        ------
        ImportRefused
            ``ref`` is empty, absolute outside the root, leads out of it (also through
            a link), is missing or is not a regular file.
        """
        if not ref or "\x00" in ref:
            raise ImportRefused(f"reference {ref!r} names no file", code="bad_reference")
        start = relative_to if relative_to is not None else self.base
        target = Path(os.path.realpath(start / ref))
        if not target.exists() and Path(os.path.realpath(start / f"{ref}.gz")).exists():
            target = Path(os.path.realpath(start / f"{ref}.gz"))
        if not target.is_relative_to(self.root):
            raise ImportRefused(
                f"{ref!r} leads out of {self.root} (to {target}); only files inside it are "
                "read (--root widens it)",
                code="outside_root",
            )
        try:
            st = os.stat(target)
        except FileNotFoundError:
            raise ImportRefused(f"{ref!r} is missing (no {target})", code="not_found") from None
        except OSError as exc:
            raise ImportRefused(f"{ref!r} cannot be read: {exc.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise ImportRefused(f"{ref!r} is not a regular file", code="not_regular")
        return target

    def read(
        self, ref: str, relative_to: Path | None = None, limit: int = MAX_INPUT_BYTES
    ) -> bytes:
        """The bytes of :meth:`resolve` of ``ref`` (unpacked if gzip-compressed)."""
        path = self.resolve(ref, relative_to)
        data = read_bytes(path, error=ImportRefused, max_bytes=limit)
        return unpack(data, str(path), limit)
