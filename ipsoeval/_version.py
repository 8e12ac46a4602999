"""The version, alone: every layer may read it without importing the package's API."""

__version__ = "0.2.0"
