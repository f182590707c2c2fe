"""The daily challenge: one Classic solo game a day for everyone, on the same dice (``dice``),
one attempt per account, a board of the day's results beside perfect play on the same dice."""
