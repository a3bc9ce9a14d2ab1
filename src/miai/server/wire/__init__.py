"""The wire: JSON forms of the core's values, strict reading of request bodies, frames to clients."""
