"""What a selector raises when the thing asked for is not public: the web layer (pages and
API) turns it into a 404, so selectors know nothing of HTTP."""


class NotFound(LookupError):
    """No public federation, list, player, event, run or page of that name."""
