"""Images entering a project: what is accepted, and what is refused in one line."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from referee.errors import ImageError
from referee.images import MAX_FILE_BYTES, MAX_PIXELS, ImageStore, inspect_image, thumbnail


def png_bytes(w: int = 64, h: int = 48, colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, "PNG")
    return buf.getvalue()


def noise_png() -> bytes:
    buf = io.BytesIO()
    Image.effect_noise((128, 128), 80).save(buf, "PNG")
    return buf.getvalue()


def header_only_png(w: int, h: int) -> bytes:
    """A PNG that declares w × h pixels but carries almost no data (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))


@pytest.mark.parametrize(("fmt", "ext"), [("PNG", "png"), ("JPEG", "jpeg"), ("WEBP", "webp")])
def test_raster_formats_are_recognised_by_content(fmt, ext):
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), "blue").save(buf, fmt)
    facts = inspect_image(buf.getvalue(), "picture.bin")
    assert (facts.format, facts.width, facts.height) == (ext, 40, 30)


def test_an_svg_takes_its_size_from_width_height_or_viewbox():
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80"><rect width="9" height="9"/></svg>'
    assert inspect_image(svg, "a.svg").width == 120
    svg2 = b'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="5mm"/>'
    facts = inspect_image(svg2, "b.svg")
    assert (facts.format, facts.width, facts.height) == ("svg", 38, 19)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (noise_png()[:2000], "corrupt_image"),  # truncated
        (b"\x89PNG\r\n\x1a\n" + b"garbage" * 20, "corrupt_image"),
        (b"GIF89a" + b"\0" * 40, "unsupported_image"),
        (b"just some text", "unsupported_image"),
        (b"", "corrupt_image"),
        (header_only_png(20000, 20000), "image_bomb"),
        (header_only_png(9000, 8000), "image_bomb"),  # over our limit, under Pillow's own
    ],
)
def test_bad_images_are_refused_with_a_code_naming_the_file(data, code):
    with pytest.raises(ImageError) as info:
        inspect_image(data, "scan.png")
    assert info.value.code == code
    assert str(info.value).startswith("scan.png: ") and "\n" not in str(info.value)


def test_a_truncated_jpeg_is_refused():
    buf = io.BytesIO()
    Image.effect_noise((256, 256), 60).convert("RGB").save(buf, "JPEG")
    with pytest.raises(ImageError, match="truncated"):
        inspect_image(buf.getvalue()[: len(buf.getvalue()) // 2], "cut.jpg")


def test_the_pixel_limit_is_inclusive_and_documented():
    assert MAX_PIXELS == 64 * 1024 * 1024 and MAX_FILE_BYTES == 32 * 1024 * 1024
    w = 8192
    with pytest.raises(ImageError, match="decompression bomb"):
        inspect_image(header_only_png(w, MAX_PIXELS // w + 1), "big.png")


def test_an_oversize_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "huge.png"
    with open(big, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing to decode
    store = ImageStore()
    with pytest.raises(ImageError) as info:
        store.add_file(big)
    assert info.value.code == "image_too_large" and "huge.png" in str(info.value)
    assert len(store) == 0


@pytest.mark.parametrize(
    "svg",
    [
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        b'<image xlink:href="https://example.com/x.png" width="5" height="5"/></svg>',
        b'<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd"/></svg>',
        b'<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(http://x/y#p)"/></svg>',
        b'<svg xmlns="http://www.w3.org/2000/svg"><style>@import "http://x/y.css";</style></svg>',
        b'<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>',
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>',
    ],
)
def test_unsafe_svgs_are_refused(svg):
    with pytest.raises(ImageError) as info:
        inspect_image(svg, "evil.svg")
    assert info.value.code == "unsafe_svg" and "evil.svg" in str(info.value)


def test_an_svg_with_embedded_pictures_and_local_references_is_accepted():
    import base64

    data = base64.b64encode(png_bytes(4, 4)).decode()
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="20" height="20"><defs><linearGradient id="g"/></defs>'
        '<rect width="20" height="20" style="fill:url(#g)"/>'
        f'<image xlink:href="data:image/png;base64,{data}" width="20" height="20"/></svg>'
    ).encode()
    assert inspect_image(svg, "ok.svg").format == "svg"


def test_a_thumbnail_fits_the_asked_size_and_keeps_the_picture():
    im = Image.linear_gradient("L").resize((1024, 512)).convert("RGB")
    for fmt in ("JPEG", "PNG", "WEBP"):
        buf = io.BytesIO()
        im.save(buf, fmt)
        small = thumbnail(buf.getvalue(), fmt.lower(), 128)
        assert small.size == (128, 64)
        # top rows dark, bottom rows light, as in the original gradient
        assert (
            small.convert("L").getpixel((64, 2)) < 40 < 215 < small.convert("L").getpixel((64, 61))
        )


def test_an_svg_thumbnail_is_rasterised_at_the_asked_size():
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100" fill="#0f0"/></svg>'
    small = thumbnail(svg, "svg", 64)
    assert small.size == (64, 32)
    assert small.convert("RGB").getpixel((32, 16)) == (0, 255, 0)
