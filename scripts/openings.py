"""The referee's built-in opening set (used when no --openings file is given); see make_openings.py."""

DEFAULT = [
    "f5d6c3d3c4f4",
    "f5f6e6f4e3c5",
    "f5d6c5f4e3f6",
    "f5f4e3f6d3c5",
]
