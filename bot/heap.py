"""The process's heap once the bot has started."""

import gc


def freeze_start_up_heap() -> None:
    """Leave what start-up built (modules, settings, the stored rows of every
    open table) out of the garbage collector's full collections: they live as
    long as the process, and scanning them made a full collection that landed
    in a table's first touch the slowest part of it. Once per process: a
    second bot in one process (tests) would otherwise pin the first one's
    garbage for good."""
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()
