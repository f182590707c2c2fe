"""The players' strip and table, drawn in Python: each mark where it belongs, names escaped."""

from __future__ import annotations

from games import rules
from games.play import card_html


def player(name: str, **marks: bool) -> dict:
    flags = {"on_turn": False, "winner": False, "you": False, "resigned": False}
    return {"name": name, "total": 212, "filled": 13, "boxes": 13, "guest": False} | flags | marks


def test_the_strip_marks_the_player_on_turn_and_escapes_names() -> None:
    html = card_html.player_chips([player("<Ann>", on_turn=True), player("Ben")])

    assert html == (
        '<li class="player-chip is-on-turn" aria-current="true">'
        "&lt;Ann&gt; <strong>212</strong></li>"
        '<li class="player-chip">Ben <strong>212</strong></li>'
    )


def test_the_table_tags_you_on_turn_winner_and_resigned() -> None:
    html = card_html.player_rows(
        [player("Alice", you=True, winner=True), player("Bo", on_turn=True, resigned=True)]
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

    html = card_html.scoreboard(rules.TRIPLE, [("Ann", True, ann), ("Ben", False, ben)])

    aces = html.split('<th scope="row">Aces</th>', 1)[1].split("</tr>", 1)[0]
    chance = html.split('<th scope="row">Chance</th>', 1)[1].split("</tr>", 1)[0]
    assert aces == '<td class="is-on-turn">7</td><td></td>'  # 3×1 + 2×2; Ben: nothing yet
    assert chance == '<td class="is-on-turn">40</td><td>30</td>'  # 20×2; 10×3
