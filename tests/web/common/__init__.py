"""Tests of scorer/web/common/."""
