"""A ``list`` option (a list of words) is parsed and checked by the kit."""

from __future__ import annotations

import jsonschema
import pytest

from referee.errors import UsageError
from referee.games import Option
from referee.games.options import option_schema, parse_options

TABLE = (
    Option("seats", list, (), choices=("red", "blue", "green"), help="colours"),
    Option("variant", str, "plain", choices=("plain", "fancy")),
)


def test_text_is_comma_separated_and_json_a_list():
    assert parse_options(TABLE, {"seats": "blue, red"})["seats"] == ["blue", "red"]
    assert parse_options(TABLE, {"seats": ["green"]})["seats"] == ["green"]
    assert parse_options(TABLE, {})["seats"] == []
    assert parse_options(TABLE, {"seats": ""})["seats"] == []


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("red,bleu", ("game option 'seats'", "red, blue, green", "did you mean 'blue'")),
        ("red,red", ("'red' twice",)),
        (3, ("comma-separated",)),
        (["red", 1], ("comma-separated",)),
    ],
)
def test_bad_lists_are_refused_in_one_line_naming_the_option(value, words):
    with pytest.raises(UsageError) as exc:
        parse_options(TABLE, {"seats": value}, "game")
    assert exc.value.code == "bad_option" and "\n" not in str(exc.value)
    for w in words:
        assert w in str(exc.value)


def test_a_misspelt_word_option_suggests_the_nearest_choice():
    with pytest.raises(UsageError, match="did you mean 'fancy'"):
        parse_options(TABLE, {"variant": "fancey"})


def test_the_schema_describes_the_list():
    schema = option_schema(TABLE)
    jsonschema.validate({"seats": ["red", "green"]}, schema)
    for bad in ({"seats": ["purple"]}, {"seats": ["red", "red"]}, {"seats": "red"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
    assert TABLE[0].text(("red", "blue")) == "red,blue"
