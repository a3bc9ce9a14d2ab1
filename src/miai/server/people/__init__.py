"""People: guest sessions and accounts (hashed passwords, display names)."""
