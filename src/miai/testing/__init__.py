"""Helpers for miai's own tests and benchmarks (and for anyone who tests a miai deployment):
private PostgreSQL and Redis servers started from Debian's binaries, and ``miai serve`` as a
child process. Nothing here is imported by the rest of the package."""
