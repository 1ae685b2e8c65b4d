"""A tiny JSON Schema checker for the subset our schemas use (no third-party dependency).

Supported: ``type`` (a name or a list), ``properties``, ``required``, ``items``, ``enum``,
``additionalProperties`` (true/false or a schema), ``minimum``, ``maximum``, ``minLength`` and
local ``$ref`` (``#/$defs/...``). Any other keyword is refused, so a schema never silently
means more than is checked.
"""

from __future__ import annotations

from typing import Any

KNOWN = {"$schema", "$id", "$defs", "title", "description", "type", "properties", "required", "items",
         "enum", "additionalProperties", "minimum", "maximum", "minLength", "$ref"}
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class SchemaError(ValueError):
    """The instance does not match: the message names the JSON path and the keyword."""


def errors(instance: Any, schema: dict[str, Any], root: dict[str, Any] | None = None, path: str = "$") -> list[str]:
    """Every mismatch, as "<path>: <why>" sentences, in a stable order."""
    root = root if root is not None else schema
    unknown = sorted(set(schema) - KNOWN)
    if unknown:
        raise ValueError(f"schema at {path} uses unsupported keywords {', '.join(unknown)}")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"schema at {path}: only local $ref is supported, not {ref!r}")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return errors(instance, target, root, path)
    out: list[str] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[n](instance) for n in names):
            return [f"{path}: expected {' or '.join(names)}, got {type(instance).__name__}"]
    if "enum" in schema and instance not in schema["enum"]:
        out.append(f"{path}: {instance!r} is not one of {schema['enum']}")
    if _TYPES["number"](instance):
        if "minimum" in schema and instance < schema["minimum"]:
            out.append(f"{path}: {instance} is below the minimum {schema['minimum']}")
        if "maximum" in schema and instance > schema["maximum"]:
            out.append(f"{path}: {instance} is above the maximum {schema['maximum']}")
    if isinstance(instance, str) and "minLength" in schema and len(instance) < schema["minLength"]:
        out.append(f"{path}: shorter than {schema['minLength']} characters")
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in instance:
                out.append(f"{path}: missing required property {key!r}")
        extra = schema.get("additionalProperties", True)
        for key in sorted(instance):
            if key in props:
                out += errors(instance[key], props[key], root, f"{path}.{key}")
            elif extra is False:
                out.append(f"{path}: unexpected property {key!r}")
            elif isinstance(extra, dict):
                out += errors(instance[key], extra, root, f"{path}.{key}")
    if isinstance(instance, list) and "items" in schema:
        for i, item in enumerate(instance):
            out += errors(item, schema["items"], root, f"{path}[{i}]")
    return out


def validate(instance: Any, schema: dict[str, Any]) -> None:
    """Raise ``SchemaError`` with the first mismatch."""
    found = errors(instance, schema)
    if found:
        raise SchemaError(found[0])


__all__ = ["SchemaError", "errors", "validate"]
