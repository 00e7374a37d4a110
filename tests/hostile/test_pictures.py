"""Issue 25, findings 5 and 6: pictures as an attacker makes them.

A nested SVG passed ``image add`` and then crashed every drawing of it (SIGSEGV in
the rasteriser); external references in other spellings than ``href=`` passed the
filter; a FIFO or a link to ``/dev/zero`` hung or read without bound; a huge PNG
placed in ``NAME.images/`` or a project's table (with small facts beside it) was
accepted by ``check`` and embedded by ``render``. Each is refused in one line,
exit 2, the project unchanged.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from referee.cli import main
from referee.images.store import ImageInfo
from referee.store import load_project, save_board

ROOT = Path(__file__).resolve().parents[2]
MD = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{}</svg>'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "board.bwproj"
    shutil.copy(MD, p)
    return p


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc in (1, 2), (rc, out, err)  # 1: refused data, 2: usage (the CLI convention)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def nested(depth: int) -> str:
    return SVG.format("<g>" * depth + '<rect width="1" height="1"/>' + "</g>" * depth)


HOSTILE_SVG = {
    "1000 nested groups": nested(1000),
    "fill url(http)": '<rect width="5" height="5" fill="url(http://evil.example/x.svg#p)"/>',
    "filter url(http)": '<rect width="5" height="5" filter="url(http://evil.example/f#f)"/>',
    "mask url(file)": '<rect width="5" height="5" mask="url(file:///etc/passwd#m)"/>',
    "clip-path url(//)": '<rect width="5" height="5" clip-path="url(//evil.example/c#c)"/>',
    "escaped u\\72l(": '<rect width="5" height="5" style="fill: u\\72l(http://evil.example/)"/>',
    "escaped \\75rl(": '<rect style="fill:\\75 rl(http://evil.example/)" width="5" height="5"/>',
    "image-set(": '<rect width="5" height="5" style="fill: image-set(\'http://e.example/a.png\' 1x)"/>',
    "comment in url": '<rect width="5" height="5" style="fill: url/**/(http://evil.example/)"/>',
    "style element url": "<style>rect { fill: url('https://evil.example/p') }</style>",
    "style element escaped import": "<style>@\\69mport 'http://evil.example/a.css';</style>",
    "feImage outside": '<filter id="f"><feImage href="http://evil.example/a.png"/></filter>',
    "unknown element": "<iframe/>",
    "animate href": '<a href="#x"><set attributeName="href" to="http://evil.example/"/></a>',
    "use bomb": (
        '<defs><g id="a"><rect width="1" height="1"/></g>'
        + "".join(
            f'<g id="{chr(98 + k)}">' + f'<use href="#{chr(97 + k)}"/>' * 10 + "</g>"
            for k in range(8)
        )
        + '</defs><use href="#i"/>'
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_SVG))
def test_a_hostile_svg_is_refused_at_image_add(
    project: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    body = HOSTILE_SVG[name]
    svg = tmp_path / "art.svg"
    svg.write_text(body if body.startswith("<svg") else SVG.format(body), encoding="utf-8")
    before = project.read_bytes()
    err = refused(["image", "add", str(project), str(svg)], capsys)
    assert "art.svg" in err
    assert project.read_bytes() == before


def test_an_ordinary_svg_with_internal_references_is_accepted(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "ok.svg"
    svg.write_text(
        SVG.format(
            '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>'
            '<clipPath id="c"><rect width="8" height="8"/></clipPath></defs>'
            '<g transform="translate(1 1)" clip-path="url(#c)">'
            '<rect width="5" height="5" fill="url(#g)" style="stroke: url(\'#g\'); stroke-width: 1"/>'
            '<use href="#c"/><text x="1" y="5" font-family="serif">A</text></g>'
            + "<g>" * 40
            + "</g>" * 40
        ),
        encoding="utf-8",
    )
    assert main(["image", "add", str(project), str(svg)]) == 0, capsys.readouterr()


def run_referee(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *argv], capture_output=True, text=True, timeout=30
    )


def test_image_add_of_a_fifo_is_refused_at_once(project: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "art.png"
    os.mkfifo(fifo)
    done = run_referee("image", "add", str(project), str(fifo))
    assert done.returncode in (1, 2) and done.stderr.count("\n") == 1, done.stderr


def test_image_add_of_a_link_to_dev_zero_is_refused_at_once(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "art.png"
    link.symlink_to("/dev/zero")
    done = run_referee("image", "add", str(project), str(link))
    assert done.returncode in (1, 2) and done.stderr.count("\n") == 1, done.stderr


def huge_png(width: int = 30000, height: int = 30000) -> bytes:
    """A PNG whose header says ``width`` × ``height`` (a few hundred bytes on disk)."""
    raw = zlib.compress(b"\x00" * (1 + width // 8) * 16)
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def small_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.parametrize("suffix", [".bwproj", ".json"])
def test_a_huge_picture_in_a_project_is_refused_by_check_and_render(
    project: Path, tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["image", "add", str(project), "--background", str(_write(tmp_path, small_png()))])
        == 0
    )
    board = load_project(project)
    assert board.background is not None
    bomb = huge_png()
    iid = hashlib.sha256(bomb).hexdigest()
    board.images.register(ImageInfo(iid, "png", 4, 4, len(bomb), "bg.png"), bomb)
    board.background = dataclasses.replace(board.background, image=iid)
    target = tmp_path / f"smuggled{suffix}"
    save_board(board, target)
    capsys.readouterr()
    rc = main(["check", str(target)])
    out, err = capsys.readouterr()
    assert rc != 0 and "bad_image" in out and "pixels" in out, (rc, out, err)
    out_svg = tmp_path / "out.svg"
    assert main(["render", str(target), "-o", str(out_svg)]) == 0  # drawn without it
    drawn = out_svg.read_text(encoding="utf-8")
    assert base64.b64encode(bomb[:30]).decode()[:36] not in drawn and "<image" not in drawn


def _write(d: Path, data: bytes) -> Path:
    p = d / "small.png"
    p.write_bytes(data)
    return p


def test_trace_of_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "scan.png"
    os.mkfifo(fifo)
    done = run_referee("trace", str(fifo), "--scale", "1", "-o", str(tmp_path / "t.bwproj"))
    assert done.returncode in (1, 2) and done.stderr.count("\n") == 1, done.stderr
    assert "not a regular file" in done.stderr


def test_a_fifo_in_the_images_folder_does_not_hang_render(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["image", "add", str(project), "--background", str(_write(tmp_path, small_png()))])
        == 0
    )
    export = tmp_path / "board.json"
    save_board(load_project(project), export)
    (pic,) = (tmp_path / "board.images").iterdir()
    pic.unlink()
    os.mkfifo(pic)
    done = run_referee("render", str(export), "-o", str(tmp_path / "out.svg"))
    assert done.returncode == 0, done.stderr  # drawn without the picture
    done = run_referee("check", str(export))
    assert done.returncode == 1 and "missing_image" in done.stdout, done.stdout
