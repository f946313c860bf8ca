"""Tests of scorer/web/tables/."""
