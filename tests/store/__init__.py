"""Tests of the storage engines (the PostgreSQL ones run on tests/postgres.py's throwaway cluster)."""
