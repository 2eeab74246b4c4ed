"""The package's version, read by pyproject.toml and sent in the User-Agent header."""

__version__ = "0.1.0"
