"""The game page's hot fragments, drawn by Jinja2 templates: the card's rows cell by cell, the
tray's dice, the players' strip and table, every card side by side; every name escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from django.template import engines
from django.urls import reverse

from games import rules
from games.models import Seat
from games.play.card import scoreboard
from games.tables import services
from tests.factories import HTMX, page_text, roll_now, score_now

HOSTILE = "<script>alert('x')</script>&"


def partial(client, game) -> str:
    return client.get(reverse("games:play", kwargs={"game_id": game.pk}), headers=HTMX).text


def card_row(html: str, letter: str) -> str:
    """The card's row of the box scored with ``letter``, as the page has it."""
    found = re.findall(rf'<tr class="score-row[^"]*" data-row="{letter}">.*?</tr>', html)
    assert len(found) == 1, found
    return found[0]


def head(letter: str, label: str, hint: str, *, upper: bool) -> str:
    css = "score-row is-upper" if upper else "score-row"
    return (
        f'<tr class="{css}" data-row="{letter.lower()}">'
        f'<td class="key-cell" aria-hidden="true"><kbd>{letter}</kbd></td>'
        f'<th scope="row" class="box-name">{label}<span class="row-hint">{hint}</span></th>'
    )


def option(
    url: str, value: str, points: int, label: str, letter: str, *, column: int | None = None
) -> str:
    """A cell offering ``points``; in Triple (a ``column`` given) its label names the column."""
    said = f", column {column}" if column else ""
    zero = " is-zero" if points == 0 else ""
    return (
        f'<td class="score-cell"><button type="submit" class="score-option{zero}" name="box"'
        f' value="{value}" formaction="{url}" hx-post="{url}" hx-sync="#game-table:queue last"'
        f' data-box-key="{letter.lower()}" data-box-label="{label}" data-column="{column or 1}"'
        f' aria-label="Score {points} in {label}{said} (key {letter})">{points}</button></td>'
    )


FORBIDDEN = (
    '<td class="score-cell"><span class="forbidden" title="The Joker rule does not allow this'
    ' box for this roll"><span aria-hidden="true">—</span><span class="visually-hidden">'
    "Not allowed by the Joker rule</span></span></td>"
)
OPEN = (
    '<td class="score-cell"><span class="open"><span class="visually-hidden">Open</span>'
    "</span></td>"
)


def test_a_row_offers_the_points_of_the_roll_and_a_zero_is_marked(alice_client, player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 1, 1, 1, 2, 3)
    score_url = reverse("games:score", kwargs={"game_id": game.pk})

    html = partial(alice_client, game)

    assert card_row(html, "a") == (
        head("A", "Aces", "Count and add only aces", upper=True)
        + option(score_url, "aces", 3, "Aces", "A")
        + "</tr>"
    )
    assert card_row(html, "f") == (
        head("F", "Sixes", "Count and add only sixes", upper=True)
        + option(score_url, "sixes", 0, "Sixes", "F")
        + "</tr>"
    )


def test_before_a_roll_every_box_is_open(alice_client, player) -> None:
    game = services.start_game(owner=player)

    html = partial(alice_client, game)

    assert card_row(html, "m") == head("M", "Chance", "Add all dice", upper=False) + OPEN + "</tr>"


def test_the_joker_rule_forbids_the_boxes_it_closes_and_a_filled_box_shows_its_points(
    alice_client, player, fill_card
) -> None:
    game = services.start_game(owner=player)
    fill_card(game, {"yahtzee": 50, "twos": 6})
    roll_now(game, player, 2, 2, 2, 2, 2)
    score_url = reverse("games:score", kwargs={"game_id": game.pk})

    html = partial(alice_client, game)

    aces = head("A", "Aces", "Count and add only aces", upper=True)
    assert card_row(html, "a") == aces + FORBIDDEN + "</tr>"
    twos = head("B", "Twos", "Count and add only twos", upper=True)
    filled = '<td class="score-cell"><span class="filled">6</span></td>'
    assert card_row(html, "b") == twos + filled + "</tr>"
    assert card_row(html, "i") == (
        head("I", "Full House", "Score 25", upper=False)
        + option(score_url, "full_house", 25, "Full House", "I")
        + "</tr>"
    )


def test_a_triple_row_has_a_cell_per_column_each_naming_its_column(alice_client, player) -> None:
    game = services.start_game(owner=player, kind="triple")
    roll_now(game, player, 3, 3, 3, 2, 2)
    score_now(game, player, "threes", 1)
    roll_now(game, player, 3, 3, 5, 5, 6)
    url = reverse("games:score", kwargs={"game_id": game.pk})

    html = partial(alice_client, game)

    assert card_row(html, "c") == (
        head("C", "Threes", "Count and add only threes", upper=True)
        + option(url, "threes", 6, "Threes", "C", column=1)
        + '<td class="score-cell"><span class="filled">9</span></td>'
        + option(url, "threes:2", 6, "Threes", "C", column=3)
        + "</tr>"
    )


def dice_of(html: str) -> list[str]:
    """The tray's dice as the page has them, each die's face left out (drawn alone below)."""
    fieldset = html.split("<legend", 1)[1].split("</fieldset>", 1)[0]
    dice = re.findall(r"<input.*?</label>", fieldset)
    return [re.sub(r'<svg class="die-face".*?</svg>', "FACE", die) for die in dice]


def die(index: int, face: str, said: str, url: str, *, held: bool = False) -> str:
    number = index + 1
    return (
        f'<input type="checkbox" class="die-toggle" id="die-{index}" name="held"'
        f' value="{index}"{" checked" if held else ""} data-die="{number}" data-face="{face}"'
        f' aria-label="Die {number} shows {said}{", held" if held else ""}"'
        f' data-label-held="Die {number} shows {said}, held"'
        f' data-label-free="Die {number} shows {said}"'
        f' hx-post="{url}" hx-trigger="change" hx-swap="none" hx-sync="#game-table:queue all">'
        f'<label for="die-{index}" class="die{" is-held" if held else ""}"'
        f' title="Hold or release die {number} (key {number})">FACE'
        '<span class="die-held-tag" aria-hidden="true">Held</span></label>'
    )


def test_the_tray_draws_five_dice_blank_before_the_roll(alice_client, player) -> None:
    game = services.start_game(owner=player)
    url = reverse("games:hold", kwargs={"game_id": game.pk})

    html = partial(alice_client, game)

    assert dice_of(html) == [die(i, "", "not rolled yet", url) for i in range(5)]
    assert html.count('<text class="die-blank"') == 5


def test_the_tray_shows_each_face_and_what_is_held(alice_client, player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 6, 6, 6, 1, 2)
    roll_now(game, player, 3, 4, held=(True, True, True, False, False))
    url = reverse("games:hold", kwargs={"game_id": game.pk})

    html = partial(alice_client, game)

    assert dice_of(html) == [
        die(0, "6", "six", url, held=True),
        die(1, "6", "six", url, held=True),
        die(2, "6", "six", url, held=True),
        die(3, "3", "three", url),
        die(4, "4", "four", url),
    ]
    faces = re.findall(r'<svg class="die-face".*?</svg>', html.split("<legend", 1)[1])[:5]
    assert [face.count('class="die-pip"') for face in faces] == [6, 6, 6, 3, 4]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)


def tags(html: str) -> list[str]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def test_a_hostile_name_is_escaped_in_every_fragment(alice_client, player) -> None:
    game = services.start_game(owner=player, guests=["Ann", "Ben"])
    Seat.objects.filter(game=game, position=1).update(display_name=HOSTILE)
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "large_straight")  # the hostile guest is on turn

    html = partial(alice_client, game)

    strip = html.split('<ol class="player-strip"', 1)[1].split("</ol>", 1)[0]
    table = html.split('<table class="players"', 1)[1].split("</table>", 1)[0]
    board = html.split('<details class="scoreboard"', 1)[1].split("</details>", 1)[0]
    for fragment in (strip, table, board):
        assert "script" not in tags(fragment)
        assert HOSTILE in page_text(fragment)
    assert "<script>alert" not in html
    assert f"{HOSTILE} 0" in page_text(strip)
    assert f"▶ {HOSTILE} (on turn) 0/13 0" in page_text(table)


def render(name: str, **context) -> str:
    return engines["jinja2"].get_template(name).render(context)


def player(name: str, **marks: bool) -> dict:
    flags = {"on_turn": False, "winner": False, "you": False, "resigned": False}
    return {"name": name, "total": 212, "filled": 13, "boxes": 13, "guest": False} | flags | marks


def test_the_strip_marks_the_player_on_turn_and_escapes_names() -> None:
    html = render(
        "games/play/player_chips.html", players=[player("<Ann>", on_turn=True), player("Ben")]
    )

    assert html == (
        '<li class="player-chip is-on-turn" aria-current="true">'
        "&lt;Ann&gt; <strong>212</strong></li>"
        '<li class="player-chip">Ben <strong>212</strong></li>'
    )


def test_the_table_tags_you_on_turn_winner_and_resigned() -> None:
    html = render(
        "games/play/player_rows.html",
        players=[player("Alice", you=True, winner=True), player("Bo", on_turn=True, resigned=True)],
    )

    assert html == (
        '<tr class="player-row is-winner">\n<th scope="row">Alice <span class="tag">you</span>'
        ' <span class="tag tag-win">winner</span></th>\n'
        '<td class="player-filled">13/13</td>\n<td class="player-total">212</td>\n</tr>\n'
        '<tr class="player-row is-on-turn" aria-current="true">\n<th scope="row">'
        '<span class="turn-mark" aria-hidden="true">▶</span> Bo'
        '<span class="visually-hidden"> (on turn)</span> <span class="tag">resigned</span></th>\n'
        '<td class="player-filled">13/13</td>\n<td class="player-total">212</td>\n</tr>\n'
    )


def test_the_scoreboard_weighs_each_triple_column() -> None:
    ann = rules.Sheet(kind=rules.TRIPLE, cards=({"aces": 3}, {"aces": 2, "chance": 20}, {}))
    ben = rules.Sheet(kind=rules.TRIPLE, cards=({}, {}, {"chance": 10}))
    board = scoreboard(rules.TRIPLE, [("Ann", True, ann), ("<Ben>", False, ben)])

    html = render("games/play/scoreboard.html", board=board)

    aces = html.split('<th scope="row">Aces</th>', 1)[1].split("</tr>", 1)[0]
    chance = html.split('<th scope="row">Chance</th>', 1)[1].split("</tr>", 1)[0]
    assert aces == '<td class="is-on-turn">7</td><td></td>'  # 3×1 + 2×2; Ben: nothing yet
    assert chance == '<td class="is-on-turn">40</td><td>30</td>'  # 20×2; 10×3
    assert html.startswith('<details class="scoreboard" open><summary>Every card (Triple: each box')
    assert (
        '<th scope="col" class="is-on-turn" aria-current="true">Ann'
        '<span class="visually-hidden"> (on turn)</span></th><th scope="col">&lt;Ben&gt;</th>'
    ) in html
    assert "Yahtzee bonus" not in html  # none in Triple
