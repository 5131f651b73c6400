"""The function under test of the throwaway exercise EX-99-01 (test_adding_an_exercise.py)."""


def clamp(value: int, low: int, high: int) -> int:
    if value < low:
        return low
    if value > high:
        return high
    return value
