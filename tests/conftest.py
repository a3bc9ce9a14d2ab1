"""Collection settings: the test command also runs the package's doctests
(``--doctest-modules``), which must not import the data files and engine scripts kept here."""

collect_ignore_glob = ["data/*"]
