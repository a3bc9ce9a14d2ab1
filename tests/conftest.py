"""Collection settings: the test command also runs the package's doctests
(``--doctest-modules``), which must not import the data files and engine scripts kept here.

Hypothesis runs without its per-example deadline: the tests check what happens, not how fast
(speed is measured in benchmarks/), and on a busy machine a first example that compiles or
warms a cache can take over the default 200 ms and fail a property that holds."""

from hypothesis import settings

settings.register_profile("miai", deadline=None)
settings.load_profile("miai")

collect_ignore_glob = ["data/*"]
