"""High scores and statistics: ranking, ties, periods, abandoned games, the viewer's rank."""

from __future__ import annotations

from games import rules
from games.models import PlayerKind, Score
from games.play import actions as play
from games.scores.selectors import high_score_entry, player_stats, top_ten
from games.tables import services
from tests.conftest import NOW
from tests.factories import page_text


def ranks(table):
    return [(row.rank, row.display_name, row.grand_total) for row in table.rows]


def test_the_top_ten_lists_the_ten_best_best_first(make_user, finished):
    players = [make_user(f"p{i}", display_name=f"P{i}") for i in range(12)]
    for i, player in enumerate(players):
        finished(player, 200 + i)

    table = top_ten(kind="classic", now=NOW)

    assert [row.grand_total for row in table.rows] == list(range(211, 201, -1))
    assert [row.rank for row in table.rows] == list(range(1, 11))


def test_ties_rank_by_who_got_there_first(make_user, finished):
    early, late = make_user("early"), make_user("late")
    finished(late, 300, days_ago=1)
    finished(early, 300, days_ago=2)

    table = top_ten(kind="classic", now=NOW)

    assert ranks(table) == [(1, "Early", 300), (2, "Late", 300)]


def test_periods_keep_only_recent_games(make_user, finished):
    player = make_user("amy")
    finished(player, 350, days_ago=100)
    finished(player, 280, days_ago=20)
    finished(player, 240, days_ago=3)

    def totals(period):
        table = top_ten(kind="classic", period=period, now=NOW)
        return [row.grand_total for row in table.rows]

    assert totals("all") == [350, 280, 240]
    assert totals("30d") == [280, 240]
    assert totals("7d") == [240]


def test_abandoned_games_never_count(player, roll):
    game = services.start_game(owner=player)
    roll(game, 6, 6, 6, 6, 6)
    game.refresh_from_db()
    play.score_box(game_id=game.pk, user=player, version=game.version, box="yahtzee")
    play.abandon_game(game_id=game.pk, user=player)

    assert not Score.objects.exists()
    assert top_ten(kind="classic").rows == []


def test_each_kind_and_the_computer_have_their_own_table(make_user, finished):
    amy = make_user("amy")
    finished(amy, 250)
    finished(amy, 900, kind="triple")
    finished(amy, 330, computer=True)

    assert [r.grand_total for r in top_ten(kind="classic").rows] == [250]
    assert [r.grand_total for r in top_ten(kind="triple").rows] == [900]
    computer = top_ten(kind="classic", player_kind=PlayerKind.COMPUTER).rows
    assert [(r.display_name, r.grand_total) for r in computer] == [("Robo", 330)]


def test_the_viewers_rows_are_marked(make_user, finished):
    amy, bob = make_user("amy"), make_user("bob")
    finished(amy, 250)
    finished(bob, 260)

    table = top_ten(kind="classic", viewer=amy, now=NOW)

    assert [(r.display_name, r.mine) for r in table.rows] == [("Bob", False), ("Amy", True)]
    assert table.my_rank is None


def test_a_viewer_outside_the_ten_sees_their_best_rank(make_user, finished):
    others = [make_user(f"p{i}") for i in range(60)]
    for i, other in enumerate(others):
        finished(other, 300 - i)  # 300 .. 241
    me = make_user("me")
    finished(me, 200)
    finished(me, 241, days_ago=1)  # ties with the 60th, who got there later (now)

    table = top_ten(kind="classic", viewer=me, now=NOW)

    assert (table.my_rank, table.my_best) == (60, 241)


def test_a_viewer_with_no_game_gets_no_rank(make_user, finished):
    finished(make_user("amy"), 250)

    table = top_ten(kind="classic", viewer=make_user("new"), now=NOW)

    assert table.my_rank is None


def test_the_top_ten_costs_one_query(make_user, finished, django_assert_num_queries):
    for i in range(15):
        finished(make_user(f"p{i}"), 200 + i)

    with django_assert_num_queries(1):
        top_ten(kind="classic", now=NOW)


def test_finishing_a_game_records_its_score_and_its_entry(player, roll, fill_card):
    game = services.start_game(owner=player)
    fill_card(game, {box: 0 for box in rules.CATEGORIES if box != "chance"} | {"yahtzee": 50})
    roll(game, 6, 6, 6, 6, 5)
    game.refresh_from_db()

    play.score_box(game_id=game.pk, user=player, version=game.version, box="chance")

    score = Score.objects.get()
    assert (score.grand_total, score.yahtzees, score.user) == (79, 1, player)
    assert (score.high_score_rank, score.high_score_period) == (1, "all")


def test_the_entry_is_the_best_period_it_reaches(make_user, finished):
    for i in range(10):
        finished(make_user(f"old{i}"), 400 + i, days_ago=60)
    score = finished(make_user("amy"), 300)

    assert high_score_entry(score, now=NOW) == (1, "30d")


def test_a_score_only_the_week_remembers_enters_the_weeks_table(make_user, finished):
    for i in range(10):
        finished(make_user(f"old{i}"), 400 + i, days_ago=20)
    score = finished(make_user("amy"), 300)

    assert high_score_entry(score, now=NOW) == (1, "7d")


def test_no_entry_below_every_table(make_user, finished, django_assert_num_queries):
    for i in range(10):
        finished(make_user(f"p{i}"), 400 + i)
    score = finished(make_user("amy"), 100)

    # Ten ahead in the last 7 days means ten ahead in every wider table: one count says so.
    with django_assert_num_queries(1):
        assert high_score_entry(score, now=NOW) is None


# --- Statistics ----------------------------------------------------------------------------


def test_player_stats_add_up(player, finished, make_user):
    finished(player, 200, yahtzees=1)
    finished(player, 300, yahtzees=2)
    finished(player, 250)
    play.abandon_game(game_id=services.start_game(owner=player).pk, user=player)
    services.start_game(owner=player)
    finished(make_user("other"), 999)

    stats = player_stats(user_id=player.pk, kind="classic")

    assert (stats.started, stats.finished, stats.abandoned, stats.in_progress) == (5, 3, 1, 1)
    assert (stats.average, stats.median, stats.best, stats.worst) == (250, 250, 300, 200)
    assert stats.yahtzees == 3
    chance = next(box for box in stats.boxes if box.key == "chance")
    assert chance.average == 20


def test_stats_of_a_player_with_no_game(player):
    stats = player_stats(user_id=player.pk, kind="classic")

    assert (stats.finished, stats.average, stats.best, stats.upper_bonus_rate) == (
        0,
        None,
        None,
        None,
    )


def test_yatzy_has_its_own_top_ten_and_statistics(make_user, finished, client_for):
    amy = make_user("amy", display_name="Amy")
    finished(amy, 301, kind=rules.CLASSIC.key)
    finished(amy, 262, kind=rules.YATZY.key, cards=[{"one_pair": 12, "yatzy": 50}])

    yatzy = top_ten(kind=rules.YATZY.key, now=NOW)
    classic = top_ten(kind=rules.CLASSIC.key, now=NOW)
    stats = player_stats(user_id=amy.pk, kind=rules.YATZY.key)
    page = client_for(amy).get("/scores/", {"kind": "yatzy"}).text

    assert ranks(yatzy) == [(1, "Amy", 262)] and ranks(classic) == [(1, "Amy", 301)]
    assert stats.totals == [262]
    assert [box.label for box in stats.boxes] == [box.label for box in rules.YATZY.boxes]
    assert "262" in page and "301" not in page
    assert ">Yatzys</th>" in page  # a five of a kind is a Yatzy there


def test_a_players_yatzy_statistics_count_yatzys_and_no_yahtzee_bonus(
    make_user, finished, client_for
):
    amy = make_user("amy", display_name="Amy")
    finished(amy, 262, kind=rules.YATZY.key, yahtzees=1, cards=[{"yatzy": 50}])

    page = client_for(amy).get(f"/players/{amy.public_id}/", {"kind": "yatzy"})

    text = page_text(page)
    assert "Yatzys rolled 1" in text
    assert "Yahtzee bonuses" not in text
