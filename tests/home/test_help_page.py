"""The "How to play" page: open to visitors, complete, correct, accessible and CSP-clean."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from games import rules

pytestmark = pytest.mark.django_db


@dataclass(eq=False)  # elements are compared by identity
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)
    pips: list[int] = field(default_factory=list)
    """For a dice group: the pips drawn on each of its dice, in order."""
    dice: Element | None = None
    """For an example: its dice group."""
    strong: list[Element] = field(default_factory=list)
    """For a box's rule: the figures it puts in bold."""


class HelpPage(HTMLParser):
    """Collects what the tests look at: dice groups, examples, inline styles and scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[Element] = []
        self.dice_groups: list[Element] = []
        self.examples: list[Element] = []
        self.stray_dice = 0
        self.style_attributes: list[str] = []
        self.inline_scripts = 0
        self.inline_handlers: list[str] = []
        self.main_text: list[str] = []
        self.box_rules: dict[str, Element] = {}
        self.joker_cases: list[Element] = []
        self._in_main = False
        self._in_script_without_src = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if "style" in attributes:
            self.style_attributes.append(tag)
        self.inline_handlers += [name for name in attributes if name.startswith("on")]
        if tag == "script":
            self._in_script_without_src = "src" not in attributes
            if self._in_script_without_src:
                self.inline_scripts += 1
        if tag == "main":
            self._in_main = True
        classes = attributes.get("class", "").split()
        element = Element(tag, attributes)
        if "help-dice" in classes:
            self.dice_groups.append(element)
            example = next((e for e in reversed(self.stack) if e in self.examples), None)
            if example is not None:
                example.dice = element
        if "example" in classes:
            self.examples.append(element)
        if "box-rule" in classes:
            self.box_rules[attributes["id"].removeprefix("box-")] = element
        if tag == "li" and self.stack and "joker-cases" in self.stack[-1].attrs.get("class", ""):
            self.joker_cases.append(element)
        if tag == "strong":
            for rule in (e for e in self.stack if e in self.box_rules.values()):
                rule.strong.append(element)
        group = self.die_group()
        if tag == "svg" and "die-face" in classes:
            if group is None:
                self.stray_dice += 1
            else:
                group.pips.append(0)
        if tag == "circle" and "die-pip" in classes and group is not None:
            group.pips[-1] += 1
        if tag not in {"circle", "rect", "br", "img", "input", "link", "meta"}:
            self.stack.append(element)

    def die_group(self) -> Element | None:
        return next((e for e in reversed(self.stack) if e in self.dice_groups), None)

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._in_main = False
        if tag == "script":
            self._in_script_without_src = False
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        if self._in_main:
            self.main_text.append(data)
        for element in self.stack:
            element.text.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.main_text).split())


def text_of(element: Element) -> str:
    return " ".join(" ".join(element.text).split())


@pytest.fixture
def response(client: Client):
    return client.get(reverse("help"))


@pytest.fixture
def page(response) -> HelpPage:
    parser = HelpPage()
    parser.feed(response.content.decode())
    return parser


def test_a_visitor_can_read_the_help_without_logging_in(response) -> None:
    assert response.status_code == 200
    assert "help.html" in [t.name for t in response.templates]


def test_the_page_blocks_rendering_on_one_stylesheet_only(response) -> None:
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', response.content.decode())
    assert sheets == ["/static/css/site.css"]


BOXES = {
    "aces": ("Aces", "3"),
    "twos": ("Twos", "4"),
    "threes": ("Threes", "9"),
    "fours": ("Fours", "16"),
    "fives": ("Fives", "10"),
    "sixes": ("Sixes", "24"),
    "three_of_a_kind": ("3 of a Kind", "20"),
    "four_of_a_kind": ("4 of a Kind", "23"),
    "full_house": ("Full House", "25"),
    "small_straight": ("Small Straight", "30"),
    "large_straight": ("Large Straight", "40"),
    "yahtzee": ("YAHTZEE", "50"),
    "chance": ("Chance", "23"),
}


def test_every_box_is_named_with_an_example_and_its_score(page: HelpPage) -> None:
    assert set(BOXES) == set(rules.CATEGORIES)
    for box, (name, points) in BOXES.items():
        examples = [e for e in page.examples if e.attrs["data-box"] == box]
        assert examples, f"no example for {box}"
        assert name in page.text
        shown = re.compile(rf"\bscores {points}\b")
        assert any(shown.search(text_of(e)) for e in examples), f"{name}: a roll scoring {points}"


FIXED_SCORES = {"full-house": "25", "small-straight": "30", "large-straight": "40", "yahtzee": "50"}
"""RULES.md's fixed scores, by the id of each box's section of the page."""


def test_each_fixed_score_is_stated_in_its_own_box(page: HelpPage) -> None:
    for box, points in FIXED_SCORES.items():
        bold = [text_of(strong) for strong in page.box_rules[box].strong]
        assert bold == [points], f"{box} states {bold}, not {points}"


def test_three_of_a_kind_says_all_five_dice_count(page: HelpPage) -> None:
    bold = [text_of(strong) for strong in page.box_rules["three-of-a-kind"].strong]
    assert bold == ["all five"]


def test_every_example_scores_what_the_rules_engine_says(page: HelpPage) -> None:
    assert len(page.examples) >= 13
    for example in page.examples:
        assert example.dice is not None, example.attrs
        expected = rules.box_score(example.attrs["data-box"], example.dice.pips)
        assert example.attrs["data-points"] == str(expected), (example.attrs, example.dice.pips)
        assert re.search(rf"\bscores {expected}\b", text_of(example))


def test_small_straight_with_a_duplicate_die_scores_30(page: HelpPage) -> None:
    straights = [e for e in page.examples if e.attrs["data-box"] == "small_straight"]
    assert any(
        e.attrs["data-points"] == "30" and e.dice and e.dice.pips == [3, 4, 4, 5, 6]
        for e in straights
    )


def test_every_dice_group_has_a_text_alternative_matching_its_dice(page: HelpPage) -> None:
    assert len(page.dice_groups) >= 16
    for group in page.dice_groups:
        assert group.attrs.get("role") == "img"
        label = group.attrs.get("aria-label", "")
        match = re.match(r"Dice: (\d), (\d), (\d), (\d), (\d)\b", label)
        assert match, f"dice group without a proper label: {label!r}"
        assert [int(d) for d in match.groups()] == group.pips, label


def test_no_die_is_drawn_outside_a_labelled_group(page: HelpPage) -> None:
    assert page.stray_dice == 0


def test_the_upper_bonus_is_explained_with_exactly_63(page: HelpPage) -> None:
    text = page.text
    assert "63 or more" in text
    assert "35 points" in text
    assert "Exactly 63 is enough" in text


def test_the_yahtzee_bonus_and_the_joker_rule_are_explained(page: HelpPage) -> None:
    text = page.text
    assert "bonus of 100 points" in text
    assert "no bonus" in text  # when the YAHTZEE box holds 0
    assert "Joker rule" in text
    assert "The upper box of that face" in text
    assert "any open lower box" in text
    assert "Full House 25, Small Straight 30, Large Straight 40" in text
    assert "a zero in any open upper box" in text
    assert any(g.pips == [4, 4, 4, 4, 4] for g in page.dice_groups), "the worked example is drawn"


def test_the_joker_worked_example_agrees_with_the_rules_engine(page: HelpPage) -> None:
    """The page's three cases of five 4s over a YAHTZEE of 50, checked against the engine."""
    dice = (4, 4, 4, 4, 4)
    bonus = rules.yahtzee_bonus(dice, {"yahtzee": 50})
    # (A bold figure ends its text piece: "= 20 ." reads "= 20." on the page.)
    cases = (re.sub(r" ([.,])", r"\1", text_of(case)) for case in page.joker_cases)
    fours_open, fours_filled, all_filled = cases

    points, worth = map(int, re.findall(r"= (\d+)\. With the bonus the roll is worth (\d+)",
                                        fours_open)[0])  # fmt: skip
    assert rules.legal_scores(dice, {"yahtzee": 50}) == {"fours": points}
    assert worth == points + bonus

    found = re.search(
        r"Large Straight for (\d+), Small Straight (\d+), Full House (\d+), "
        r"or 3 of a Kind, 4 of a Kind or Chance for (\d+)\. Large Straight plus the bonus makes "
        r"(\d+)",
        fours_filled,
    )
    assert found, fours_filled
    large, small, full, summed, total = map(int, found.groups())
    legal = rules.legal_scores(dice, {"yahtzee": 50, "fours": 12})
    assert (legal["large_straight"], legal["small_straight"], legal["full_house"]) == (
        large,
        small,
        full,
    )
    assert legal["three_of_a_kind"] == legal["four_of_a_kind"] == legal["chance"] == summed
    assert total == large + bonus

    assert "write a 0 in an open upper box" in all_filled
    full_lower = {box: 1 for box in rules.LOWER} | {"fours": 12}
    assert set(rules.legal_scores(dice, full_lower).values()) == {0}


def test_triple_yahtzee_multipliers_and_differences_are_explained(page: HelpPage) -> None:
    text = page.text
    assert "three columns" in text
    assert "39 rounds" in text
    assert "×1, ×2 and ×3" in text
    assert "column 1 + 2 × column 2 + 3 × column 3" in text
    assert "its own upper bonus" in text
    assert "no Yahtzee bonus and no Joker rule" in text


def test_yatzy_its_boxes_bonus_and_expected_score_are_explained(page: HelpPage) -> None:
    text = page.text
    for box in rules.YATZY.lower:
        assert box.label in text
    assert "15 boxes" in text and "15 rounds" in text
    assert "upper bonus is 50 at 63 or more" in text
    assert "no Yatzy bonus and no Joker" in text
    assert "Perfect play expects 248.44 points from a new game" in text
    # Its worked examples say what the rules engine scores.
    for box, dice, points in [
        (rules.Box.ONE_PAIR, (3, 3, 5, 5, 1), 10),
        (rules.Box.TWO_PAIRS, (3, 3, 5, 5, 1), 16),
        (rules.Box.TWO_PAIRS, (4, 4, 4, 4, 1), 0),
        (rules.Box.YATZY_THREE_KIND, (4, 4, 4, 2, 6), 12),
        (rules.Box.YATZY_FOUR_KIND, (6, 6, 6, 6, 6), 24),
        (rules.Box.YATZY_FULL_HOUSE, (2, 2, 2, 3, 3), 12),
    ]:
        assert f"{'-'.join(map(str, dice))}: {points}" in text
        assert rules.box_score(box, dice) == points


def test_the_keys_match_the_game_and_include_the_boss_key(page: HelpPage, response) -> None:
    text = page.text
    for phrase in (
        "Hold or release a die",
        "Roll the dice that are not held",
        "the letter picks the box, the digit its column",
        "Home",
        "`",
        "spreadsheet",
    ):
        assert phrase in text
    assert b'id="keys-help"' not in response.content, "the keys are inline, not the game's dialog"


def test_trial_abandoning_and_high_scores_are_covered(page: HelpPage) -> None:
    text = page.text
    assert "5 trial games" in text
    assert "serial number" in text
    assert "records no score" in text
    assert "top ten" in text
    assert "who got there first" in text
    assert "their own table" in text


def test_the_table_of_contents_links_to_sections_on_the_page(response) -> None:
    html = response.content.decode()
    targets = re.findall(r'<a href="#([\w-]+)"', html)
    assert len(targets) >= 8
    for target in targets:
        if target == "main":
            continue
        assert f'id="{target}"' in html, target


def test_no_inline_styles_scripts_or_handlers(page: HelpPage, response) -> None:
    assert page.style_attributes == []
    assert page.inline_scripts == 0
    assert page.inline_handlers == []
    assert b"<img" not in response.content.replace(b'<img src="/static/', b"")
