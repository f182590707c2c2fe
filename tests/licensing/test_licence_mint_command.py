"""`manage.py mint_serials`: serials printed once as CSV, only their keyed hash kept."""

from __future__ import annotations

import csv
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection
from django.db.models import Count

from accounts import licensing, serials
from accounts.models import Serial, SerialBatch

pytestmark = pytest.mark.django_db


def mint(*args: str) -> list[list[str]]:
    """Run the command; the CSV rows it printed, header first."""
    out = StringIO()
    call_command("mint_serials", *args, stdout=out, stderr=StringIO())
    return list(csv.reader(StringIO(out.getvalue())))


def every_stored_value() -> list[str]:
    """Every value of every column of every ``accounts_serial`` row, as text."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_serial")
        return [str(value) for row in cursor.fetchall() for value in row]


def test_prints_a_csv_header_and_one_row_per_serial() -> None:
    rows = mint("--count", "3", "--batch", "shop-a")

    assert rows[0] == ["batch", "serial"]
    assert len(rows) == 1 + 3
    assert all(batch == "shop-a" for batch, _ in rows[1:])


def test_prints_serials_in_display_form_that_parse() -> None:
    rows = mint("--count", "5", "--batch", "shop-a")

    for _, shown in rows[1:]:
        assert serials.display(serials.parse(shown)) == shown


def test_stores_one_serial_per_printed_row_in_the_named_batch() -> None:
    mint("--count", "4", "--batch", "shop-a")

    batch = SerialBatch.objects.get(name="shop-a")
    assert batch.serials.count() == 4 == Serial.objects.count()


def test_the_database_holds_no_serial_in_plain_text() -> None:
    printed = [shown for _, shown in mint("--count", "20", "--batch", "shop-a")[1:]]

    stored = " ".join(every_stored_value())
    for shown in printed:
        canonical = serials.parse(shown)
        assert shown not in stored
        assert canonical not in stored
        assert canonical.lower() not in stored
        assert canonical[:-4] not in stored  # not even the part before last4


def test_the_database_holds_the_keyed_hash_and_the_last_four() -> None:
    printed = [serials.parse(shown) for _, shown in mint("--count", "3", "--batch", "b")[1:]]

    stored = set(Serial.objects.values_list("digest", "last4"))
    assert stored == {(licensing.serial_digest(c), c[-4:]) for c in printed}


def test_the_same_batch_name_adds_to_that_batch() -> None:
    mint("--count", "2", "--batch", "shop-a")
    mint("--count", "3", "--batch", "shop-a")
    mint("--count", "1", "--batch", "shop-b")

    counts = dict(SerialBatch.objects.annotate(n=Count("serials")).values_list("name", "n"))
    assert counts == {"shop-a": 5, "shop-b": 1}


def test_without_a_batch_name_the_batch_is_named_after_the_time() -> None:
    rows = mint("--count", "1")

    batch = SerialBatch.objects.get()
    assert batch.name.startswith("batch-")
    assert rows[1][0] == batch.name


def test_reports_what_it_minted_on_stderr_not_in_the_csv() -> None:
    out, err = StringIO(), StringIO()

    call_command("mint_serials", "--count", "2", "--batch", "shop-a", stdout=out, stderr=err)

    assert "Minted 2 serial(s) in batch 'shop-a'." in err.getvalue()
    assert "Minted" not in out.getvalue()


@pytest.mark.parametrize("count", ["0", "-1", "100001"])
def test_count_out_of_bounds_is_refused_and_mints_nothing(count: str) -> None:
    with pytest.raises(CommandError, match="--count must be between 1 and 100000"):
        mint("--count", count, "--batch", "shop-a")

    assert not Serial.objects.exists()
    assert not SerialBatch.objects.exists()


def test_count_is_required() -> None:
    with pytest.raises(CommandError, match="--count"):
        mint("--batch", "shop-a")


def test_minted_serials_are_all_different() -> None:
    printed = [shown for _, shown in mint("--count", "500", "--batch", "big")[1:]]

    assert len(set(printed)) == 500


def test_the_service_refuses_to_mint_nothing() -> None:
    with pytest.raises(ValueError, match="count must be at least 1"):
        licensing.mint_serials(count=0, batch_name="empty")

    assert not SerialBatch.objects.exists()


def test_the_service_mints_a_single_serial() -> None:
    (shown,) = licensing.mint_serials(count=1, batch_name="one")

    assert Serial.objects.get().last4 == serials.parse(shown)[-4:]


def test_a_mint_that_fails_leaves_no_batch_and_no_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two serials with one hash (as a broken generator would make): all or nothing."""
    monkeypatch.setattr(licensing, "serial_digest", lambda canonical: "same digest")

    with pytest.raises(IntegrityError):
        licensing.mint_serials(count=2, batch_name="broken")

    assert not SerialBatch.objects.exists()
    assert not Serial.objects.exists()
