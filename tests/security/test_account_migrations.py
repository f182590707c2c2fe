"""Migration 0006 on an existing database: random public ids, look-alike keys, and no staff
login name left in public."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0005_options"), ("games", "0006_seat_game_over")]
AFTER = [("accounts", "0006_public_id_and_look_alike_names")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def test_existing_rows_are_filled_and_a_staff_login_name_leaves_the_high_scores() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    OldUser = old.get_model("accounts", "User")
    Game, Seat, Score = (old.get_model("games", name) for name in ("Game", "Seat", "Score"))
    admin = OldUser.objects.create(username="root", display_name="root", is_staff=True)
    alice = OldUser.objects.create(username="alice", display_name="Alice", email="a@x.org")
    twin = OldUser.objects.create(username="alice2", display_name="ALICE", email="b@x.org")
    game = Game.objects.create(owner=admin, kind="classic", status="finished")
    seat = Seat.objects.create(game=game, position=0, user=admin, display_name="root")
    Score.objects.create(
        seat=seat,
        game=game,
        kind="classic",
        user=admin,
        display_name="root",
        grand_total=200,
        finished_at=timezone.now(),
    )
    try:
        new = migrate(AFTER).loader.project_state(AFTER).apps
        User = new.get_model("accounts", "User")
        users = {u.username: u for u in User.objects.all()}

        assert len({u.public_id for u in users.values()}) == 3
        assert re.fullmatch(r"Player \d{6}", users["root"].display_name)
        assert users["root"].display_name_key == ""
        assert new.get_model("games", "Score").objects.get().display_name != "root"
        assert users["alice"].display_name == "Alice"
        assert users["alice"].display_name_key == "allce"
        # A clash older than the rule is kept, under a key of its own.
        assert users["alice2"].display_name_key == f"allce#{twin.pk}"
        assert alice.pk != twin.pk
    finally:
        migrate([("accounts", leaf("accounts")), ("games", leaf("games"))])


def leaf(app: str) -> str:
    executor = MigrationExecutor(connection)
    (leaf,) = [node for node in executor.loader.graph.leaf_nodes() if node[0] == app]
    return leaf[1]
