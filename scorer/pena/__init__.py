"""Peñas: the lifetime ledger and statistics of a group that plays evening after evening."""
