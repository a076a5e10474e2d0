"""The one error type of the pure cores: what is wrong, and where."""


class EngineInputError(ValueError):
    """Bad engine input. ``where`` names the entry (``players[3]``, ``games[12].result``, ...)."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where
        self.what = what
