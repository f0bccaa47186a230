"""How the search player weighs its samples."""

from __future__ import annotations

import random

from bot.ai.search import MIN_TRUSTED, Tally


def noisy_tally(means: list[float], preferred: int, samples: int, seed: int = 1) -> Tally:
    rng = random.Random(seed)
    tally = Tally(len(means), preferred)
    for _ in range(samples):
        shared = rng.gauss(0, 0.2)  # the deal's luck, common to every option
        tally.add([means[i] + shared + rng.gauss(0, 0.01) for i in tally.active])
    return tally


def test_a_clearly_better_option_replaces_the_preferred_one() -> None:
    tally = noisy_tally([0.50, 0.56, 0.40], preferred=0, samples=30)
    assert tally.choice() == 1


def test_noise_does_not_move_the_choice_off_the_preferred_option() -> None:
    tally = noisy_tally([0.500, 0.501, 0.40], preferred=0, samples=30)
    assert tally.choice() == 0


def test_too_few_samples_keep_the_preferred_option() -> None:
    tally = noisy_tally([0.2, 0.9], preferred=0, samples=MIN_TRUSTED - 1)
    assert tally.choice() == 0


def test_pruning_drops_clear_losers_but_never_the_preferred_option() -> None:
    tally = noisy_tally([0.5, 0.6, 0.1, 0.2], preferred=3, samples=12)
    tally.prune()
    assert tally.active == [1, 3]
    # Later samples evaluate only the active options.
    tally.add([0.6, 0.2])
    assert len(tally.samples) == 13
    assert tally.choice() == 1


def test_identical_options_are_pruned_and_settle() -> None:
    tally = Tally(3, preferred=0)
    for k in range(10):
        tally.add([0.1 * k, 0.1 * k, 0.1 * k - 0.5])
    tally.prune()
    assert tally.active == [0]
    assert tally.stable()
    assert tally.choice() == 0
