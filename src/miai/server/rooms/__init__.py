"""The live games: one room (an actor with an inbox) per loaded game, its timers, its visitors,
and the registry that loads and unloads them."""
