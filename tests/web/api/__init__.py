"""Tests of scorer/web/api/."""
