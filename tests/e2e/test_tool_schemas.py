"""Every tool's input and output schema, as `tools/list` gives them over `locus mcp`, is valid
JSON Schema draft 2020-12 under a strict validator: no keyword or `format` the draft does not
define (agents' validators warn about each, e.g. Claude Code's `unknown format "uint32"
ignored in schema`), and every example a schema gives is valid against it.

Needs the Python `mcp` SDK and `jsonschema` (scripts/install-test-peers.sh) and the `locus`
binary; a missing peer fails the test.
"""

import asyncio

import pytest

from mcp_common import env, locus_bin  # noqa: F401 (fixtures)

try:
    from jsonschema import Draft202012Validator
    from mcp import Client, StdioServerParameters
except ImportError as e:  # a missing peer fails loudly
    Client = None
    IMPORT_ERROR = e

# The formats draft 2020-12 defines (its format vocabulary).
FORMATS = {
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
}

# Keywords of draft 2020-12's vocabularies (core, applicator, validation, meta-data, format,
# content, unevaluated).
KEYWORDS = {
    "$schema", "$id", "$ref", "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "$vocabulary",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "type", "enum", "const", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
    "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties",
    "minProperties", "required", "dependentRequired", "title", "description", "default",
    "deprecated", "readOnly", "writeOnly", "examples", "format", "contentEncoding",
    "contentMediaType", "contentSchema",
}

# Where a schema's values are schemas (maps of them, lists of them, or one).
SCHEMA_MAPS = {"properties", "patternProperties", "$defs", "dependentSchemas"}
SCHEMA_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}
SCHEMA_ONE = {"not", "if", "then", "else", "items", "contains", "additionalProperties",
              "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}


def problems_of(schema, at: str, out: list[str]):
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        out.append(f"{at}: not a schema: {schema!r}")
        return
    for key, value in schema.items():
        if key not in KEYWORDS:
            out.append(f"{at}: `{key}` is not a draft 2020-12 keyword")
        elif key == "format" and value not in FORMATS:
            out.append(f"{at}: format `{value}` is not defined by draft 2020-12")
        elif key in SCHEMA_MAPS:
            for name, sub in value.items():
                problems_of(sub, f"{at}/{key}/{name}", out)
        elif key in SCHEMA_LISTS:
            for i, sub in enumerate(value):
                problems_of(sub, f"{at}/{key}/{i}", out)
        elif key in SCHEMA_ONE:
            problems_of(value, f"{at}/{key}", out)


def examples_of(schema, at: str, out: list[tuple[str, dict, object]], root: dict):
    """Every (place, schema, example) of a schema's properties."""
    if not isinstance(schema, dict):
        return
    for example in schema.get("examples", []):
        out.append((at, schema, example))
    for name, sub in schema.get("properties", {}).items():
        examples_of(sub, f"{at}/properties/{name}", out, root)


def test_every_schema_is_strict_draft_2020_12(env):
    if Client is None:
        pytest.fail(f"a peer is missing ({IMPORT_ERROR}): run scripts/install-test-peers.sh")

    async def main():
        params = StdioServerParameters(command=locus_bin(), args=["mcp"], env=env.vars, cwd=str(env.workspace))
        async with Client(params) as client:
            return (await client.list_tools()).tools

    tools = asyncio.run(main())
    assert len(tools) >= 40
    problems = []
    for tool in tools:
        for kind, schema in (("input", tool.input_schema), ("output", tool.output_schema)):
            assert schema, f"{tool.name} has no {kind} schema"
            where = f"{tool.name} {kind}"
            try:
                Draft202012Validator.check_schema(schema)
            except Exception as e:  # the validator's own verdict, named
                problems.append(f"{where}: {e}")
            problems_of(schema, where, problems)
            examples = []
            examples_of(schema, where, examples, schema)
            for at, sub, example in examples:
                # A property's example, checked against the property's schema with the root's
                # $defs in reach.
                standalone = {**sub, "$defs": schema.get("$defs", {})}
                for error in Draft202012Validator(standalone).iter_errors(example):
                    problems.append(f"{at}: example {example!r} is invalid: {error.message}")
    assert not problems, "\n".join(problems)
