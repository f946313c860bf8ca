"""Tests of scorer/web/evening/."""
