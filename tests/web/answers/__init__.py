"""Tests of scorer/web/answers/: a hand the whole table agrees on (R31)."""
