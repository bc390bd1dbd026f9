"""Thin route handlers: parse the request, call one function, shape the response."""
