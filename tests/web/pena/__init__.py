"""Tests of scorer/web/pena/."""
