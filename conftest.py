"""Root pytest configuration."""

collect_ignore_glob = ["src/cosmodeck/__main__.py"]
