"""The ``--quick`` flag every benchmark has: the same code paths over tiny sizes,
so that a run takes seconds and CI can prove each benchmark still runs.

A benchmark names its quick sizes; ``--quick`` makes them the defaults, and
an option given on the command line still wins over them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def parse_args(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, **quick: object
) -> argparse.Namespace:
    """Parse ``argv`` with ``--quick`` added, its sizes being ``quick``."""
    unknown = set(quick) - set(vars(parser.parse_args([])))
    if unknown:
        raise ValueError(f"quick sizes for options the parser lacks: {sorted(unknown)}")
    parser.add_argument(
        "--quick", action="store_true", help="a run of seconds over tiny sizes (what CI runs)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        parser.set_defaults(**quick)
        args = parser.parse_args(argv)
    return args
