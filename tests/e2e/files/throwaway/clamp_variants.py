"""Stand-ins for ``clamp``: one twin, one mutant (the throwaway exercise EX-99-01)."""

from typing import Any


def clamp_twin(value: Any, low: Any, high: Any) -> Any:
    """Behaves like clamp, written with min/max."""
    return max(low, min(value, high))


def clamp_no_upper(value: Any, low: Any, high: Any) -> Any:
    """Wrong: never clamps to the upper bound."""
    if value < low:
        return low
    return value
