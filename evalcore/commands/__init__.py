"""One module per ``evalcore`` subcommand; each defines ``register(subparsers)``."""
