"""Whatever a player types, a display name the form accepts is one others can read.

The form looks the name up among other players' (look-alikes are refused), hence the database.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.display_names import has_encoded_words, prints
from accounts.forms import DisplayNameForm
from accounts.models import User

pytestmark = pytest.mark.django_db


@given(st.text(max_size=40))
def test_an_accepted_display_name_is_short_visible_and_trimmed(typed: str) -> None:
    form = DisplayNameForm({"display_name": typed}, instance=User(username="alice"))

    if form.is_valid():
        name = form.cleaned_data["display_name"]
        assert name == name.strip()
        assert 1 <= len(name) <= 30
        assert name.isprintable()
        assert prints(name) and not has_encoded_words(name)  # in mail too
    else:
        assert form.errors["display_name"]


@given(st.text(alphabet=st.characters(categories=["L", "N", "P"]), min_size=1, max_size=30))
def test_letters_numbers_and_punctuation_are_accepted(typed: str) -> None:
    form = DisplayNameForm({"display_name": typed}, instance=User(username="alice"))

    assert form.is_valid(), form.errors
