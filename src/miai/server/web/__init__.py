"""The HTTP and WebSocket face of the server: routes by resource, middleware (origin, rate limits),
the page's shell, texts and static files."""
