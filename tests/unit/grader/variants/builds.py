"""Stand-ins as the oracle runs them: the real function or a variant, called directly.

(Through the oracle and the probe's proxy, each must behave exactly the same: see
tests/unit/grader/oracle.)
"""

from __future__ import annotations

from typing import Any

from grader.proxy.oracle.implementations import implementation


def built(target: str, name: str, seed: int = 0) -> Any:
    """``name`` ("real" or a twin/mutant) as the oracle calls it (``seed`` is ignored)."""
    return implementation(target, name)
