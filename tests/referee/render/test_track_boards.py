"""The track games drawn as boards (``referee render``, and the browser table, which
shows the SVG ``render`` draws): stage goals with their names, event spaces with their
symbols, the resolve track's hearts and direction, the encounter row as card slots,
the Activity lines' spaces — read from the elements of the SVG, not from pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from referee.compiler import compile_board
from referee.games.mount_doom.layout import layout_of
from referee.render import render_svg
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"
#: the board's width on the browser table at 1400 x 900 (the side panel takes the rest)
TABLE_BOARD_PX = 900


@lru_cache(maxsize=2)
def drawn(project: str) -> tuple[ET.Element, object]:
    c = compile_board(load_project(ROOT / "projects" / project))
    return ET.fromstring(render_svg(c.board, c, legend=False)), c


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "title")]


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_mount_doom_shows_its_stage_goals_events_and_resolve_track() -> None:
    """Rulebook: 'six stage goals' on the route, dark hearts and Nazgûl on the event
    spaces, the resolve track from the bright heart to the dark heart."""
    root, c = drawn("mount-doom")
    lay = layout_of(c)  # type: ignore[arg-type]
    assert len(by_class(root, "stage-goal")) == 6
    names = {e.text for e in by_class(root, "place-name")}
    assert set(lay.goal_names.values()) <= names  # Lothlórien ... Mount Doom, by name
    t = titles(root)
    darks = sum(1 for e in lay.events.values() if e == "dark_heart")
    assert t.count("dark heart") == darks + 1  # the events and the resolve track's end
    assert t.count("bright heart") == 1
    assert t.count("Nazgûl space") == sum(1 for e in lay.events.values() if e == "nazgul")
    assert "Sauron's eye" in t and "the One Ring starts here" in t
    assert len(by_class(root, "resolve-direction")) == len(lay.resolve) - 1
    # the chevrons point down the track, from the bright end toward the dark end
    slots = by_class(root, "card-slot")
    assert [s.get("data-node") for s in slots] == lay.row


def test_the_cooperative_game_shows_its_scenario_boards_and_spaces() -> None:
    root, _ = drawn("lotr-coop")
    names = {e.text for e in by_class(root, "track-name")}
    for scenario in ("Moria", "Helm's Deep", "Shelob's Lair", "Mordor"):
        assert any(n.startswith(scenario + ":") for n in names), scenario
    places = {e.text for e in by_class(root, "place-name")}
    assert {"Bag End", "Rivendell", "Mount Doom"} <= places
    t = titles(root)
    for what in ("Life token: heart", "Life token: sun", "Life token: ring", "roll the die"):
        assert what in t, what
    assert any(x.startswith("Feature card: ") for x in t)


def test_track_labels_are_legible_at_1400_by_900() -> None:
    """Every number and name on a track board is at least 11 px high when the board is
    fitted to the table's board area at 1400 x 900."""
    for project in ("mount-doom", "lotr-coop"):
        root, _ = drawn(project)
        width = float(root.get("viewBox", "0 0 1 1").split()[2])
        scale = TABLE_BOARD_PX / width
        texts = [*by_class(root, "track-text"), *by_class(root, "track-name")]
        assert texts
        small = [e.text for e in texts if float(e.get("font-size", 0)) * scale < 11]
        assert small == [], (project, small[:5])


def test_the_encounter_row_shows_its_cards_face_up_or_down() -> None:
    """Rulebook (Setup): the encounter cards are laid on the row, some face up, some
    face down: ``render --state`` (and the table) draws each position's top card on its
    slot, a face-up card with its title, a face-down one as a back."""
    from referee.games import get_game
    from referee.render import render_game

    _, c = drawn("mount-doom")
    g = get_game("mount-doom").new(c, players=2, seed=1)  # type: ignore[arg-type]
    root = ET.fromstring(render_game(g))
    shown = {
        e.get("data-figure"): e for e in root.iter() if e.get("data-figure", "").startswith("row-")
    }
    lay = layout_of(c)  # type: ignore[arg-type]
    assert len(shown) == sum(1 for s in g.row if s)
    for k, stack in enumerate(g.row):
        if not stack:
            continue
        title = shown[f"row-{k + 1}"].find(SVG + "title")
        assert title is not None and title.text
        if stack[-1]["up"]:
            assert title.text.startswith(lay.cards[stack[-1]["card"]]["name"])
        else:
            assert title.text.startswith("a face-down card")
            assert lay.cards.get(stack[-1]["card"], {}).get("name", "?") not in title.text
