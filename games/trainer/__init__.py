"""The trainer: Classic solitaire positions to decide, drawn first from a player's own costliest
decisions, then from a hand-made set, each missed one coming back on a spaced schedule."""
