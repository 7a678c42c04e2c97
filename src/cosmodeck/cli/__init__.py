"""The ``cosmodeck`` command."""
