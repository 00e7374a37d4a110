"""The ground-floor vocabulary (issue 26, "Layers you can see"): what plug-ins register
into — properties, symbols, pictures — found through the ``boardwright.rules`` entry
points, so the model, the palette and the renderer read it without importing
``referee.games``."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from referee import vocabulary
from referee.errors import UsageError
from referee.games import registry
from referee.model import PROP_SPECS, prop_table
from referee.palette import feature_symbols, rules_symbols
from referee.vocabulary import GROUP, Plugin, Symbol, prop_specs


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    """Load the entry points anew in the test, and again (the real ones) after it."""
    caches = (vocabulary.installed, vocabulary.plugins, registry.modules)
    for c in caches:
        c.cache_clear()
    yield
    for c in caches:
        c.cache_clear()


def test_every_installed_game_is_a_plugin_of_the_vocabulary() -> None:
    assert set(registry.modules()) <= set(vocabulary.plugins())
    for name, rm in registry.modules().items():
        assert vocabulary.plugins()[name] is rm and rm.name == name
    # what the model and the palette read comes from there
    assert (
        prop_table()["point"]["colour"]
        == registry.get_module("ringgeister").props["point"]["colour"]
    )
    assert rules_symbols("riddle") is registry.get_module("riddle").symbols
    assert rules_symbols("no-such-game") == {}


def test_a_vocabulary_only_plugin_adds_properties_and_never_changes_generic_ones() -> None:
    extra = Plugin(
        name="heights",
        props={"point": {"height": {"type": "number"}, "name": {"type": "int"}}},
        symbols={"point.height": Symbol("h", "#123456", "text")},
    )
    merged = prop_specs(PROP_SPECS, {"heights": extra})
    assert merged["point"]["height"] == {"type": "number"}
    assert merged["point"]["name"] == PROP_SPECS["point"]["name"]  # generic wins
    drawn = feature_symbols("point", {"height": 3}, table=dict(extra.symbols))
    assert [key for key, _ in drawn] == ["point.height"]


def test_a_broken_or_foreign_entry_point_is_reported_and_left_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_caches: None
) -> None:
    found = [
        EntryPoint("ringgeister", "referee.games.ringgeister:RULES", GROUP),
        EntryPoint("ghost", "referee_no_such_plugin_pkg:RULES", GROUP),
        EntryPoint("loads", "json:loads", GROUP),
    ]
    monkeypatch.setattr(vocabulary, "entry_points", lambda group: found if group == GROUP else [])
    assert list(vocabulary.installed()) == ["loads", "ringgeister"]
    assert list(vocabulary.plugins()) == ["ringgeister"]
    assert list(registry.modules()) == ["ringgeister"]
    err = capsys.readouterr().err.splitlines()
    assert any("rules module 'ghost' failed to load" in line for line in err), err
    assert any(
        "entry point 'loads' of boardwright.rules is not a RulesModule" in line for line in err
    )


def test_a_plugins_picture_must_be_a_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.render import pictures

    odd = Plugin(name="odd", pictures={"point": "a drawing"})
    monkeypatch.setattr(pictures, "plugins", lambda: {"odd": odd})
    with pytest.raises(UsageError, match=r"rules module 'odd': pictures\['point'\] is a str"):
        pictures.picture_table.__wrapped__()
