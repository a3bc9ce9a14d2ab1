"""Records of games: the SGF export and the review of an uploaded record."""
