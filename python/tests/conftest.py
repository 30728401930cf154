"""Shared helpers for libro's Python tests."""

import random

import libro


def play_random(state: libro.State, rng: random.Random, max_plies: int = 100_000) -> libro.State:
    """Plays uniformly random moves and the chance outcomes by their probabilities."""
    for _ in range(max_plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
