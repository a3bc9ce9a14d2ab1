"""The ``miai`` command: one module per subcommand, each exposing ``add_parser(subparsers)``."""
