"""HTTP only: controllers, authentication, wire schemas and the one error mapping."""
