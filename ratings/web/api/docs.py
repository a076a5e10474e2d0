"""The API's documentation page: the OpenAPI schema django-ninja writes, rendered on the server.

No JavaScript and no CDN (the site has neither); every word on the page comes from the schema,
so the page and /api/v1/openapi.json cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import render
from django.urls import reverse


@dataclass(frozen=True)
class Param:
    name: str
    location: str
    required: bool
    type: str
    description: str


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    summary: str
    description: str
    parameters: list[Param]
    responses: list[tuple[str, str]]  # (status, schema name or "")


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    description: str


@dataclass(frozen=True)
class Model:
    name: str
    description: str
    fields: list[Field]


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_text(schema: dict) -> str:
    """A JSON schema in a few words: "integer, 1..500", "Entry list", "string or null"."""
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    if "anyOf" in schema:
        return " or ".join(type_text(s) for s in schema["anyOf"])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return type_text(schema["allOf"][0])
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {type_text(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema:
        return f"{{name: {type_text(schema['additionalProperties'])}}}"
    words = [schema.get("format", kind)]
    low = schema.get("minimum", schema.get("minLength"))
    high = schema.get("maximum", schema.get("maxLength"))
    if low is not None or high is not None:
        unit = " characters" if kind == "string" else ""
        words.append(f"{'' if low is None else low}..{'' if high is None else high}{unit}")
    if "pattern" in schema:
        words.append(f"matching {schema['pattern']}")
    if "default" in schema:
        words.append(f"default {schema['default']}")
    return ", ".join(words)


def _not_null(schema: dict) -> dict:
    """A query parameter is absent rather than null: drop pydantic's `null` alternative."""
    options = [s for s in schema.get("anyOf", ()) if s.get("type") != "null"]
    if len(options) != 1:
        return schema
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    return {**rest, **options[0]}


def endpoints(schema: dict) -> list[Endpoint]:
    found = []
    for path, operations in schema["paths"].items():
        for method, op in operations.items():
            params = [
                Param(
                    p["name"],
                    p["in"],
                    p.get("required", False),
                    type_text(_not_null(p.get("schema", {}))),
                    p.get("description") or p.get("schema", {}).get("description", ""),
                )
                for p in op.get("parameters", [])
            ]
            responses = []
            for status, response in op.get("responses", {}).items():
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                responses.append((status, type_text(body) if body else ""))
            found.append(
                Endpoint(
                    method.upper(),
                    path,
                    op.get("summary", ""),
                    op.get("description", ""),
                    params,
                    responses,
                )
            )
    return found


def models(schema: dict) -> list[Model]:
    return [
        Model(
            name,
            component.get("description", ""),
            [
                Field(
                    field,
                    type_text(spec),
                    spec.get("description", ""),
                )
                for field, spec in component.get("properties", {}).items()
            ],
        )
        for name, component in schema.get("components", {}).get("schemas", {}).items()
    ]


def docs_page(request, api):
    schema = api.get_openapi_schema()
    return render(
        request,
        "ratings/api_docs.html",
        {
            "info": schema["info"],
            "endpoints": endpoints(schema),
            "models": models(schema),
            "openapi_url": request.build_absolute_uri(reverse("api:openapi-json")),
        },
    )
