"""The OpenAPI document at `/schema`, finished where Litestar's generator cannot say enough.

Litestar builds the document from the routes (their `summary=`, docstrings, parameters and
`error_responses`); `finish` then adds what its `ResponseSpec` has no field for: the
`Retry-After` header on 429 and 503, the open (`security: []`) public operations, the raw
message as bytes, and `/schema` itself. No page here runs script: the document is JSON, and
`/schema/docs` is a plain HTML reading of it under a policy that allows nothing external.
"""

from __future__ import annotations

import copy
import html
from typing import Any, Final

from litestar import MediaType, Request, Response, Router
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin
from litestar.openapi.spec import Components

from gateway.api.auth import BEARER, BEARER_SCHEME

__all__ = ["DOCS_POLICY", "DocsPage", "FinishedJson", "finish", "openapi_config"]

RETRY_AFTER: Final = {
    "description": "Seconds to wait before trying again (the same number as `retry_after_sec`).",
    "schema": {"type": "integer", "minimum": 0},
}
OPEN_OPERATIONS: Final = frozenset({"health", "ready", "getOpenApiDocument"})
"""Operations that take no token: liveness and readiness for probes, and this document."""

SCHEMA_OPERATION: Final = {
    "get": {
        "operationId": "getOpenApiDocument",
        "tags": ["system"],
        "summary": "This OpenAPI document",
        "description": "The OpenAPI 3.1 document of this API, as JSON; also at `/schema/openapi.json`. Needs no token.",
        "security": [],
        "responses": {
            "200": {
                "description": "The document.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    }
}

DOCS_POLICY: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The docs page's Content-Security-Policy: no script, no request anywhere, inline styles only."""


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """`document` (Litestar's, as a dict) with what the routes cannot declare; changed in place."""
    paths = document.setdefault("paths", {})
    paths["/schema"] = copy.deepcopy(SCHEMA_OPERATION)
    for item in paths.values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            is_open = operation.get("operationId") in OPEN_OPERATIONS
            if is_open:
                operation["security"] = []  # no token: overrides the document's bearer default
            for status, response in operation["responses"].items():
                content = response.get("content", {})
                if status in ("429", "503") and not is_open:
                    # A 429 always says when to retry; a 503 does when the outage is passing.
                    header = {**RETRY_AFTER, "required": status == "429"}
                    response["headers"] = {**response.get("headers", {}), "Retry-After": header}
                if "message/rfc822" in content:
                    content["message/rfc822"]["schema"] = {"type": "string", "format": "binary"}
    return document


class FinishedJson(JsonRenderPlugin):
    """The JSON document, finished once (Litestar caches the dict it passes)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._source: dict[str, Any] | None = None
        self._finished: dict[str, Any] = {}

    def finished(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The finished copy of `schema`, made on first use."""
        if self._source is not schema:
            self._finished, self._source = finish(copy.deepcopy(schema)), schema
        return self._finished

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The finished document as JSON."""
        return self.render_json(request, self.finished(openapi_schema))


class DocsPage(OpenAPIRenderPlugin):
    """`/schema/docs`: every operation as plain HTML (no script, nothing loaded from anywhere)."""

    def __init__(self, source: FinishedJson) -> None:
        super().__init__(path="/docs", media_type=MediaType.HTML)
        self._source = source

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """The page; its policy header comes from the router (`receive_router`)."""
        return _page(self._source.finished(openapi_schema)).encode()

    def receive_router(self, router: Router) -> None:
        """Every answer under /schema carries the strict policy (the page, the JSON, the 404s)."""
        router.after_request = _with_policy


async def _with_policy(response: Response[Any]) -> Response[Any]:
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _page(document: dict[str, Any]) -> str:
    e = html.escape
    info = document.get("info", {})
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        f"<title>{e(info.get('title', 'API'))} {e(info.get('version', ''))}</title>",
        "<style>body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
        "code,pre{font-family:ui-monospace,monospace}h2{margin-top:2.5rem;border-top:1px solid #ccc;padding-top:1rem}"
        "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;vertical-align:top;"
        "text-align:left}</style></head><body>",
        f"<h1>{e(info.get('title', 'API'))} {e(info.get('version', ''))}</h1>",
        "<p>The machine-readable document is <a href=openapi.json>openapi.json</a> (also at <code>/schema</code>):"
        " generate a client from it, or open it in any OpenAPI viewer. Every operation takes"
        " <code>Authorization: Bearer &lt;token&gt;</code> unless it says <em>no token</em>.</p>",
    ]
    for path, item in document.get("paths", {}).items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            open_note = " <em>(no token)</em>" if op.get("security") == [] else ""
            parts.append(
                f'<h2 id="{e(op.get("operationId", ""))}"><code>{e(method.upper())} {e(path)}</code>{open_note}</h2>'
            )
            parts.append(f"<p><strong>{e(op.get('summary', ''))}</strong></p>")
            parts += [f"<p>{e(' '.join(p.split()))}</p>" for p in op.get("description", "").split("\n\n")]
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            if "$ref" in body:
                parts.append(f"<p>JSON body: <code>{e(body['$ref'].rpartition('/')[2])}</code></p>")
            params = op.get("parameters", [])
            if params:
                parts.append("<table><tr><th>parameter</th><th>in</th><th>schema</th><th>meaning</th></tr>")
                for p in params:
                    schema = _schema_text(p.get("schema", {}))
                    parts.append(
                        f"<tr><td><code>{e(p['name'])}</code></td><td>{e(p['in'])}</td>"
                        f"<td><code>{e(schema)}</code></td><td>{e(p.get('description', ''))}</td></tr>"
                    )
                parts.append("</table>")
            parts.append("<table><tr><th>status</th><th>meaning</th><th>content</th></tr>")
            for status, response in op["responses"].items():
                types = ", ".join(response.get("content", {}))
                parts.append(
                    f"<tr><td>{e(status)}</td><td>{e(response.get('description', ''))}</td><td>{e(types)}</td></tr>"
                )
            parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _schema_text(schema: dict[str, Any]) -> str:
    bounds = {k: schema[k] for k in ("minimum", "maximum", "maxLength", "default", "format") if k in schema}
    kind = schema.get("type") or " | ".join(str(s.get("type", "?")) for s in schema.get("oneOf", []))
    return f"{kind} {bounds}" if bounds else str(kind)


def openapi_config(version: str) -> OpenAPIConfig:
    """The app's OpenAPI configuration: bearer auth by default, docs from the routes, no script."""
    json = FinishedJson(path=["/", "/openapi.json"])
    return OpenAPIConfig(
        title="agentmail-gateway",
        version=version,
        path="/schema",
        # Every operation takes the bearer token unless `finish` opens it (/health, /schema).
        components=Components(security_schemes={BEARER: BEARER_SCHEME}),
        security=[{BEARER: []}],
        use_handler_docstrings=True,  # a route's docstring is its description in generated clients
        # /schema itself is the JSON document (README); /schema/docs is for reading in a browser.
        render_plugins=[json, DocsPage(json)],
    )
