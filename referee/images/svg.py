"""SVG images: refusing unsafe ones, finding their size, rasterising them with resvg.

An SVG is a program as much as a picture: it can carry scripts, event handlers
and references to files or web addresses that a renderer would fetch. Boardwright
refuses (does not store) an SVG that has any of:

- a ``<!DOCTYPE`` or ``<!ENTITY`` declaration (entity expansion bombs, external
  entities);
- a ``<script>`` or ``<foreignObject>`` element, or an ``on…`` event attribute;
- an ``href``/``xlink:href`` that is not a fragment (``#id``) or an embedded
  ``data:image/png|jpeg|webp`` URI, or a ``url(…)`` / ``@import`` in a style that
  points outside the file.

We refuse rather than silently strip, so a designer learns why art went missing;
the error names the file and the first offending element.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..errors import ImageError

_SAFE_HREF = re.compile(r"^(#|data:image/(png|jpeg|webp);base64,)", re.I)
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.I)
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*(px|mm|cm|in|pt|pc)?\s*$", re.I)
_UNIT_PX = {"px": 1.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0, "pt": 96 / 72, "pc": 16.0}
_FORBIDDEN = {"script", "foreignobject"}
#: Size given to an SVG without width/height/viewBox, in pixels.
DEFAULT_SVG_SIDE = 300


def looks_like_svg(data: bytes) -> bool:
    """Whether ``data`` starts like an XML/SVG document (after a BOM and blanks)."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return (
        head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg"))
        and b"<svg" in data[:4096].lower()
    )


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def check_svg(data: bytes, name: str) -> tuple[int, int]:
    """Refuse an unsafe or malformed SVG; return its size in pixels (width, height).

    Raises
    ------
    ImageError
        ``unsafe_svg`` for scripts, event handlers, external references and
        DOCTYPE/entity declarations; ``corrupt_image`` for malformed XML or a root
        element that is not ``<svg>``.
    """
    low = data.lower()
    if b"<!doctype" in low or b"<!entity" in low:
        raise ImageError(
            "SVG with a DOCTYPE or entity declaration is refused", code="unsafe_svg", location=name
        )
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ImageError(f"malformed SVG ({exc})", code="corrupt_image", location=name) from None
    if _local(root.tag) != "svg":
        raise ImageError("root element is not <svg>", code="corrupt_image", location=name)
    for el in root.iter():
        tag = _local(el.tag) if isinstance(el.tag, str) else ""
        if tag in _FORBIDDEN:
            raise ImageError(f"SVG contains <{tag}>", code="unsafe_svg", location=name)
        for key, value in el.attrib.items():
            attr = _local(key)
            if attr.startswith("on"):
                raise ImageError(
                    f"SVG has an event handler {attr}= on <{tag}>", code="unsafe_svg", location=name
                )
            if attr == "href" and not _SAFE_HREF.match(value.strip()):
                raise ImageError(
                    f"SVG <{tag}> refers outside the file ({value[:60]!r})",
                    code="unsafe_svg",
                    location=name,
                )
            if attr == "style":
                _check_css(value, tag, name)
        if tag == "style" and el.text:
            _check_css(el.text, tag, name)
    return _svg_size(root)


def _check_css(css: str, tag: str, name: str) -> None:
    if "@import" in css.lower():
        raise ImageError(f"SVG <{tag}> style uses @import", code="unsafe_svg", location=name)
    for target in _CSS_URL.findall(css):
        if not _SAFE_HREF.match(target):
            raise ImageError(
                f"SVG <{tag}> style refers outside the file ({target[:60]!r})",
                code="unsafe_svg",
                location=name,
            )


def _length(value: str | None) -> float | None:
    if value is None:
        return None
    m = _LENGTH.match(value)
    if not m:
        return None
    return float(m.group(1)) * _UNIT_PX[(m.group(2) or "px").lower()]


def _svg_size(root: ET.Element) -> tuple[int, int]:
    w, h = _length(root.get("width")), _length(root.get("height"))
    vb = root.get("viewBox")
    vw = vh = None
    if vb:
        try:
            _, _, vw, vh = (float(v) for v in vb.replace(",", " ").split())
        except ValueError:
            vw = vh = None
    if w is None and h is None and vw and vh:
        w, h = vw, vh
    elif w is None and h is not None and vw and vh:
        w = h * vw / vh
    elif h is None and w is not None and vw and vh:
        h = w * vh / vw
    w = w or DEFAULT_SVG_SIDE
    h = h or DEFAULT_SVG_SIDE
    return max(1, round(w)), max(1, round(h))


def rasterise_svg(data: bytes, max_side: int | None) -> bytes:
    """PNG bytes of a (checked) SVG, at its own size or scaled to fit ``max_side``."""
    import resvg_py

    text = data.decode("utf-8", errors="replace")
    try:
        root = ET.fromstring(data)
        w, h = _svg_size(root)
    except ET.ParseError:
        w = h = DEFAULT_SVG_SIDE
    width = height = None
    if max_side is not None:
        if w >= h:
            width = max_side
        else:
            height = max_side
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=text, width=width, height=height))
    except Exception as exc:  # resvg reports bad SVG as ValueError/RuntimeError
        raise ImageError(f"SVG cannot be drawn ({exc})", code="corrupt_image") from None
