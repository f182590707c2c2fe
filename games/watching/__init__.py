"""Watching a game read-only and live, without a seat: a tournament's games by the tournament's
link, an online game of several by the watch link its host gives out."""
