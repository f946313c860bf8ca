"""Cartulina: scorekeeping and money ledger for tables of Tresillo."""

__version__ = "0.1.0"
