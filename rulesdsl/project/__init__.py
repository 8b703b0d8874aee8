"""A project on disk: settings and the series library, the build driver, starters, the reference, coverage."""
