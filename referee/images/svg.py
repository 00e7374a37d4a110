"""SVG images: refusing unsafe ones, finding their size, rasterising them with resvg.

An SVG is a program as much as a picture: it can carry scripts, event handlers,
references to files or web addresses that a renderer would fetch, and structures
that exhaust a renderer (deep nesting crashed resvg with SIGSEGV). Boardwright
keeps an SVG only if it passes an **allow-list**, and refuses (does not store) it
otherwise:

- no ``<!DOCTYPE`` or ``<!ENTITY`` declaration (entity bombs, external entities);
- every element is a static drawing element of SVG (:data:`ELEMENTS`: shapes,
  text, groups, gradients, patterns, clip paths, masks, markers, filters) or
  editor metadata in a foreign namespace (Inkscape's, RDF); ``<script>``,
  ``<foreignObject>``, ``<iframe>``, animation elements and anything unknown are
  refused;
- every attribute is a known geometry, presentation or core attribute
  (:data:`ATTRIBUTES`), or in the ``xml:``/``xlink:`` or an editor's namespace;
  no ``on…`` event handlers;
- no reference leaves the file, in any spelling: an ``href`` is a fragment
  (``#id``) or an embedded ``data:image/png|jpeg|webp`` URI; in any attribute or
  style, after CSS escapes (``u\\72l(``) and comments are undone, every ``url(…)``
  is a fragment or such a data URI, and ``@import``, ``image-set(``, ``image(``,
  ``cross-fade(``, ``element(``, ``expression(`` and ``javascript:`` are refused;
- at most :data:`MAX_DEPTH` nested elements and :data:`MAX_ELEMENTS` elements; a
  ``<use>`` may not point at an element holding another ``<use>`` (a chain of
  them multiplies: ten uses of ten uses of ... is a billion shapes).

We refuse rather than silently strip, so a designer learns why art went missing;
the error names the file and the first offending element.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from ..errors import ImageError

_SAFE_HREF = re.compile(r"^(#|data:image/(png|jpeg|webp);base64,)", re.I)
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.I)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|[^\n0-9a-fA-F])")
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.S)
_CSS_FORBIDDEN: tuple[str, ...] = ("@import", "image-set(", "image(", "cross-fade(", "element(")
_CSS_FORBIDDEN += ("expression(", "javascript:", "-webkit-image-set(", "paint(", "src(")
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*(px|mm|cm|in|pt|pc)?\s*$", re.I)
_UNIT_PX = {"px": 1.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0, "pt": 96 / 72, "pc": 16.0}
#: Size given to an SVG without width/height/viewBox, in pixels.
DEFAULT_SVG_SIDE = 300
#: Most elements nested in one another (resvg crashed on 1,000 nested groups).
MAX_DEPTH = 64
#: Most elements in one SVG.
MAX_ELEMENTS = 200_000

SVG_NS = "http://www.w3.org/2000/svg"
#: namespaces of editors' metadata, which no renderer draws
EDITOR_NS = frozenset(
    {
        "http://www.inkscape.org/namespaces/inkscape",
        "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "http://creativecommons.org/ns#",
        "http://purl.org/dc/elements/1.1/",
        "http://ns.adobe.com/AdobeIllustrator/10.0/",
        "http://ns.adobe.com/SaveForWeb/1.0/",
        "http://www.bohemiancoding.com/sketch/ns",
    }
)
#: attribute namespaces allowed besides no namespace (xlink's href is checked)
_ATTR_NS = frozenset({"http://www.w3.org/XML/1998/namespace", "http://www.w3.org/1999/xlink"})

#: the SVG elements kept (static drawing; lower case)
ELEMENTS = frozenset(
    """svg g defs symbol use title desc metadata switch
    path rect circle ellipse line polyline polygon image
    text tspan textpath
    lineargradient radialgradient stop pattern clippath mask marker style
    filter feblend fecolormatrix fecomponenttransfer fecomposite feconvolvematrix
    fediffuselighting fedisplacementmap fedistantlight fedropshadow feflood fefunca
    fefuncb fefuncg fefuncr fegaussianblur feimage femerge femergenode femorphology
    feoffset fepointlight fespecularlighting fespotlight fetile feturbulence""".split()  # noqa: SIM905
)
#: the attributes kept (no namespace; lower case)
ATTRIBUTES = frozenset(
    """id class style lang tabindex version baseprofile preserveaspectratio viewbox
    x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points pathlength transform
    href requiredfeatures requiredextensions systemlanguage
    dx dy rotate textlength lengthadjust startoffset method spacing side
    offset gradientunits gradienttransform spreadmethod patternunits
    patterncontentunits patterntransform clippathunits maskunits maskcontentunits
    markerunits markerwidth markerheight refx refy orient
    filterunits primitiveunits in in2 result mode type values operator k1 k2 k3 k4
    order kernelmatrix divisor bias targetx targety edgemode kernelunitlength
    preservealpha surfacescale diffuseconstant specularconstant specularexponent
    limitingconeangle pointsatx pointsaty pointsatz azimuth elevation z
    scale xchannelselector ychannelselector stddeviation radius basefrequency
    numoctaves seed stitchtiles tablevalues slope intercept amplitude exponent
    media title
    alignment-baseline baseline-shift clip clip-path clip-rule color
    color-interpolation color-interpolation-filters color-profile color-rendering
    cursor direction display dominant-baseline enable-background fill fill-opacity
    fill-rule filter flood-color flood-opacity font font-family font-size
    font-size-adjust font-stretch font-style font-variant font-weight
    glyph-orientation-horizontal glyph-orientation-vertical image-rendering kerning
    letter-spacing lighting-color marker marker-end marker-mid marker-start mask
    mask-type opacity overflow paint-order pointer-events shape-rendering stop-color
    stop-opacity stroke stroke-dasharray stroke-dashoffset stroke-linecap
    stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor
    text-decoration text-rendering transform-origin transform-box unicode-bidi
    vector-effect visibility white-space word-spacing writing-mode mix-blend-mode
    isolation solid-color solid-opacity""".split()  # noqa: SIM905
)


def looks_like_svg(data: bytes) -> bool:
    """Whether ``data`` starts like an XML/SVG document (after a BOM and blanks)."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return (
        head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg"))
        and b"<svg" in data[:4096].lower()
    )


def _split(tag: str) -> tuple[str, str]:
    """``(namespace, local name in lower case)`` of an ElementTree name."""
    if tag.startswith("{"):
        ns, _, local = tag[1:].partition("}")
        return ns, local.lower()
    return "", tag.lower()


def _local(tag: str) -> str:
    return _split(tag)[1]


def _unsafe(what: str, name: str) -> ImageError:
    return ImageError(what, code="unsafe_svg", location=name)


def _parse(data: bytes, name: str) -> ET.Element:
    """The document's root, parsed with the depth and element limits applied while
    parsing (a deep document is refused before it is built)."""
    parser: Any = ET.XMLPullParser(events=("start", "end"))
    depth = count = 0
    root: ET.Element | None = None
    try:
        for k in range(0, len(data), 1 << 16):
            parser.feed(data[k : k + (1 << 16)])
            for event, el in parser.read_events():
                if event == "start":
                    assert isinstance(el, ET.Element)
                    root = el if root is None else root
                    depth += 1
                    count += 1
                    if depth > MAX_DEPTH:
                        raise _unsafe(f"SVG nests elements more than {MAX_DEPTH} deep", name)
                    if count > MAX_ELEMENTS:
                        raise _unsafe(f"SVG has more than {MAX_ELEMENTS:,} elements", name)
                else:
                    depth -= 1
        parser.close()
    except ET.ParseError as exc:
        raise ImageError(f"malformed SVG ({exc})", code="corrupt_image", location=name) from None
    if root is None:
        raise ImageError("malformed SVG (no element)", code="corrupt_image", location=name)
    return root


def check_svg(data: bytes, name: str) -> tuple[int, int]:
    """Refuse an unsafe or malformed SVG; return its size in pixels (width, height).

    Raises
    ------
    ImageError
        ``unsafe_svg`` for anything outside the allow-list (see the module),
        external references, DOCTYPE/entity declarations, too deep or too many
        elements; ``corrupt_image`` for malformed XML or a root element that is
        not ``<svg>``.
    """
    low = data.lower()
    if b"<!doctype" in low or b"<!entity" in low:
        raise _unsafe("SVG with a DOCTYPE or entity declaration is refused", name)
    root = _parse(data, name)
    if _local(root.tag) != "svg":
        raise ImageError("root element is not <svg>", code="corrupt_image", location=name)
    holds_use: set[str] = set()
    uses: list[str] = []
    _walk(root, name, holds_use, uses, False)
    for target in uses:
        if target in holds_use:
            raise _unsafe(f"SVG <use> of #{target[:40]}, which holds another <use>", name)
    return _svg_size(root)


def _walk(el: ET.Element, name: str, holds_use: set[str], uses: list[str], foreign: bool) -> bool:
    """Check ``el`` and its children (depth is bounded by :func:`_parse`); whether
    ``el`` holds a ``<use>``. ``foreign``: inside editor metadata."""
    ns, tag = _split(el.tag) if isinstance(el.tag, str) else ("", "")
    if ns in EDITOR_NS:
        foreign = True
    elif ns in ("", SVG_NS) and not foreign:
        if tag not in ELEMENTS:
            raise _unsafe(f"SVG contains <{tag}>, which Boardwright does not keep", name)
    elif not foreign or ns not in ("", SVG_NS):
        raise _unsafe(f"SVG contains <{tag}> of namespace {ns[:60]!r}", name)
    else:  # an SVG-looking element inside editor metadata: nothing drawn, still checked
        if tag not in ELEMENTS:
            raise _unsafe(f"SVG contains <{tag}>, which Boardwright does not keep", name)
    for key, value in el.attrib.items():
        _check_attribute(key, value, tag, name, ns in EDITOR_NS)
    if tag == "style" and el.text:
        _check_css(el.text, tag, name)
    has_use = tag == "use"
    if has_use:
        href = el.get("href") or el.get("{http://www.w3.org/1999/xlink}href") or ""
        uses.append(href.strip()[1:])
    for child in el:
        has_use = _walk(child, name, holds_use, uses, foreign) or has_use
    if has_use and el.get("id"):
        holds_use.add(str(el.get("id")))
    return has_use


def _check_attribute(key: str, value: str, tag: str, name: str, editors: bool) -> None:
    """One attribute; ``editors``: of an editor's metadata element (any name kept)."""
    ns, attr = _split(key)
    if attr.startswith("on"):
        raise _unsafe(f"SVG has an event handler {attr}= on <{tag}>", name)
    if (
        ns == ""
        and not editors
        and attr not in ATTRIBUTES
        and not attr.startswith(("data-", "aria-"))
    ):
        raise _unsafe(f"SVG <{tag}> has attribute {attr}=, which Boardwright does not keep", name)
    if ns not in ("", *_ATTR_NS, *EDITOR_NS):
        raise _unsafe(f"SVG <{tag}> has attribute {attr}= of namespace {ns[:60]!r}", name)
    if attr == "href" and not _SAFE_HREF.match(value.strip()):
        raise _unsafe(f"SVG <{tag}> refers outside the file ({value[:60]!r})", name)
    _check_css(value, tag, name)


def _css_plain(css: str) -> str:
    """``css`` with its escapes undone and comments removed, in lower case."""

    def unescape(m: re.Match[str]) -> str:
        body = m.group(1)
        if body[0] in "0123456789abcdefABCDEF":
            code = int(body.strip(), 16)
            return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
        return body

    return _CSS_COMMENT.sub("", _CSS_ESCAPE.sub(unescape, css)).lower()


def _check_css(css: str, tag: str, name: str) -> None:
    if "\\" not in css and "(" not in css and "@" not in css and ":" not in css:
        return  # plain words and numbers (the common attribute value)
    plain = _css_plain(css)
    squeezed = re.sub(r"\s+", "", plain)
    for word in _CSS_FORBIDDEN:
        if word in squeezed:
            raise _unsafe(f"SVG <{tag}> uses {word.rstrip('(')} in a style or attribute", name)
    for target in _CSS_URL.findall(squeezed):
        if not _SAFE_HREF.match(target):
            raise _unsafe(f"SVG <{tag}> refers outside the file ({target[:60]!r})", name)
    if "url(" in squeezed and len(_CSS_URL.findall(squeezed)) != squeezed.count("url("):
        raise _unsafe(f"SVG <{tag}> has a url( Boardwright cannot read", name)


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
