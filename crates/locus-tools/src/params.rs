//! Input schemas generated from parameter types, and validation against them.
//!
//! A tool's parameters are one Rust type. Its JSON Schema (the MCP `inputSchema`) is generated
//! from that type by schemars, and the input is checked against that schema first, so an
//! error can name the parameter, the expected type and an example, then deserialized into the
//! type by serde. The two agree by construction; `tests/catalogue.rs` checks that they do for
//! every tool, with valid, missing, mistyped and unknown parameters.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::envelope::{ErrorCode, ToolError};
use crate::spec::ParamHint;

/// The input schema of `T`: an inline `object` schema without `$schema` or `title`.
pub fn schema_for<T: JsonSchema>() -> Map<String, Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut map = match schema.to_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    numeric_formats_as_bounds(&mut map);
    map.remove("title");
    map.remove("$schema");
    map.insert("type".into(), json!("object"));
    map.entry("properties").or_insert_with(|| json!({}));
    map
}

/// The JSON Schema of a tool's `data` type `T` (for the envelope's output schema): inline
/// where it can be, with `$defs` for recursive types (see [`crate::envelope::schema`]).
pub fn output_schema_for<T: JsonSchema>() -> Map<String, Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
            // What serializes: `skip_serializing_if` members are optional.
            s.contract = schemars::generate::Contract::Serialize;
        })
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut map = match schema.to_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    numeric_formats_as_bounds(&mut map);
    map.remove("$schema");
    map
}

/// 2^53 - 1, the largest integer a double holds exactly (JavaScript's `Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The bounds a Rust integer type's `format` (as schemars writes it) stands for. 64-bit types:
/// the integers a JavaScript client reads exactly (its validators and VS Code's manifest hold
/// schemas as doubles), beyond which no id or count goes.
fn integer_bounds(format: &str) -> Option<(i64, i64)> {
    Some(match format {
        "uint8" => (0, u8::MAX.into()),
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "uint64" | "uint" => (0, MAX_SAFE_INTEGER),
        "int64" | "int" => (-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
        _ => return None,
    })
}

/// Rewrites the `format` schemars gives Rust's number types (`uint32`, `int64`, `double`, …),
/// which JSON Schema does not define (agents' validators warn about each one): an integer's
/// becomes the bounds it stands for, `minimum` and `maximum`, where the schema's own are not
/// tighter; a float's is dropped. Everywhere in the schema, nested ones included.
fn numeric_formats_as_bounds(schema: &mut Map<String, Value>) {
    if let Some(format) = schema.get("format").and_then(Value::as_str).map(str::to_owned) {
        let bounds = integer_bounds(&format);
        if bounds.is_some() || matches!(format.as_str(), "double" | "float") {
            schema.remove("format");
        }
        if let Some((lo, hi)) = bounds {
            let own = |key: &str| schema.get(key).and_then(Value::as_f64);
            let (keep_min, keep_max) = (
                own("minimum").is_some_and(|m| m >= lo as f64),
                own("maximum").is_some_and(|m| m <= hi as f64),
            );
            if !keep_min {
                schema.insert("minimum".into(), lo.into());
            }
            if !keep_max {
                schema.insert("maximum".into(), hi.into());
            }
        }
    }
    for value in schema.values_mut() {
        match value {
            Value::Object(sub) => numeric_formats_as_bounds(sub),
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(sub) = item {
                        numeric_formats_as_bounds(sub);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The parameters a schema describes, in the schema's order.
pub fn hints(schema: &Map<String, Value>) -> Vec<ParamHint> {
    let required = required(schema);
    properties(schema)
        .map(|props| {
            props
                .iter()
                .map(|(name, p)| ParamHint {
                    name: name.clone(),
                    expected: expected(p),
                    required: required.contains(&name.as_str()),
                    description: p
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    example: example(p),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn properties(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

fn required(schema: &Map<String, Value>) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn example(p: &Value) -> Option<Value> {
    p.get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
        .cloned()
        .or_else(|| p.get("example").cloned())
}

/// The JSON types a property schema allows (`null` included when optional).
fn types(p: &Value) -> Vec<&str> {
    match p.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The expected type in words: `integer >= 1`, `string`, `one of "a", "b"`.
pub fn expected(p: &Value) -> String {
    if let Some(values) = p.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", names.join(", "));
    }
    let ts: Vec<&str> = types(p).into_iter().filter(|t| *t != "null").collect();
    let mut s = if ts.is_empty() { "any value".to_string() } else { ts.join(" or ") };
    // Bounds that only a Rust integer type sets (`u32::MAX`, `i64::MIN`, …) say nothing to a
    // reader: they are left out of the words.
    let typed = |b: &f64| b.abs() < f64::from(i32::MAX);
    let minimum = p.get("minimum").and_then(Value::as_f64).filter(typed);
    let maximum = p.get("maximum").and_then(Value::as_f64).filter(typed);
    match (minimum, maximum) {
        (Some(min), Some(max)) => s.push_str(&format!(" from {min} to {max}")),
        (Some(min), None) if min != 0.0 || !ts.contains(&"integer") => {
            s.push_str(&format!(" >= {min}"))
        }
        (Some(_), None) => s.push_str(" >= 0"),
        (None, Some(max)) => s.push_str(&format!(" <= {max}")),
        (None, None) => {}
    }
    s
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

fn invalid(name: &str, p: &Value, problem: String, received: Option<&Value>) -> ToolError {
    let expected = expected(p);
    let example = example(p);
    let eg = example.as_ref().map(|e| format!(", e.g. {e}")).unwrap_or_default();
    let mut details = json!({"parameter": name, "expected": expected});
    if let Some(e) = example {
        details["example"] = e;
    }
    if let Some(r) = received {
        details["received"] = json!(kind_of(r));
    }
    ToolError::new(
        ErrorCode::InvalidParams,
        format!("parameter `{name}` {problem}: expected {expected}{eg}"),
    )
    .with_details(details)
}

/// Checks `args` against `schema`: an error names the first offending parameter, what was
/// expected and an example. `null` (no arguments) counts as `{}`, and an optional parameter
/// given as `null` counts as omitted (many clients send `null` for what they leave out).
pub fn check(schema: &Map<String, Value>, args: &Value) -> Result<(), ToolError> {
    let empty = Map::new();
    let args = match args {
        Value::Null => &empty,
        Value::Object(map) => map,
        other => {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "the arguments must be a JSON object of named parameters, not {}",
                    kind_of(other)
                ),
            )
            .with_details(json!({"expected": "object", "received": kind_of(other)})));
        }
    };
    let props = properties(schema).unwrap_or(&empty);
    for name in required(schema) {
        if !args.contains_key(name) {
            let p = props.get(name).cloned().unwrap_or(Value::Null);
            return Err(invalid(name, &p, "is missing".into(), None));
        }
    }
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    for (name, value) in args {
        let Some(p) = props.get(name) else {
            if closed {
                let known: Vec<String> = props.keys().map(|k| format!("`{k}`")).collect();
                let takes = if known.is_empty() {
                    "this tool takes no parameters".to_string()
                } else {
                    format!("this tool takes {}", known.join(", "))
                };
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!("unknown parameter `{name}`: {takes}"),
                )
                .with_details(
                    json!({"parameter": name, "known": props.keys().collect::<Vec<_>>()}),
                ));
            }
            continue;
        };
        if value.is_null() && !required(schema).contains(&name.as_str()) {
            continue;
        }
        check_value(name, p, value)?;
    }
    Ok(())
}

fn check_value(name: &str, p: &Value, value: &Value) -> Result<(), ToolError> {
    let ts = types(p);
    if !ts.is_empty() && !ts.iter().any(|t| type_matches(t, value)) {
        return Err(invalid(
            name,
            p,
            format!("has the wrong type ({} {value})", kind_of(value)),
            Some(value),
        ));
    }
    if let Some(values) = p.get("enum").and_then(Value::as_array)
        && !values.contains(value)
    {
        return Err(invalid(name, p, format!("is {value}"), Some(value)));
    }
    // A number against its bounds (an integer's include its Rust type's: see
    // [`numeric_formats_as_bounds`]), named as numbers. Integers compare exactly.
    let exact = |v: &Value| v.as_i64().map(i128::from).or(v.as_u64().map(i128::from));
    let order = |bound: &Value| match (exact(value), exact(bound)) {
        (Some(n), Some(b)) => Some(n.cmp(&b)),
        _ => value.as_f64()?.partial_cmp(&bound.as_f64()?),
    };
    if value.is_number() {
        use std::cmp::Ordering::{Greater, Less};
        let bound = match (p.get("minimum"), p.get("maximum")) {
            (Some(min), _) if order(min) == Some(Less) => Some(format!("less than {min}")),
            (_, Some(max)) if order(max) == Some(Greater) => Some(format!("more than {max}")),
            _ => None,
        };
        if let Some(bound) = bound {
            return Err(invalid(name, p, format!("is {value}, {bound}"), Some(value)));
        }
    }
    if let (Some(s), Some(min)) = (value.as_str(), p.get("minLength").and_then(Value::as_u64)) {
        let chars = s.chars().count() as u64;
        if chars < min {
            let problem = if chars == 0 {
                "is empty".to_string()
            } else {
                format!("is too short ({chars} characters, at least {min})")
            };
            return Err(invalid(name, p, problem, Some(value)));
        }
    }
    if let (Value::Object(_), true) = (value, p.get("properties").is_some())
        && let Value::Object(sub) = p
    {
        check(sub, value).map_err(|mut e| {
            e.message = format!("in `{name}`: {}", e.message);
            e
        })?;
    }
    Ok(())
}

/// Checks a 1-based `line` given as parameter `parameter` against a file of `lines` lines (as
/// VS Code counts them): past the end is the agent's mistake, refused with `E_INVALID_PARAMS`
/// naming the file's line count (docs/reference/envelope.md), never clamped. For every tool
/// taking a line.
pub fn line_within(parameter: &str, line: u32, lines: usize, path: &str) -> Result<(), ToolError> {
    if line as usize <= lines {
        return Ok(());
    }
    let noun = if lines == 1 { "line" } else { "lines" };
    Err(ToolError::new(
        ErrorCode::InvalidParams,
        format!(
            "parameter `{parameter}` is {line}, past the end of `{path}`, which has {lines} {noun}"
        ),
    )
    .with_hint(format!(
        "Give a line from 1 to {lines} (symbol_outline shows the file's symbols with their lines)"
    ))
    .with_details(
        json!({"parameter": parameter, "received": line, "lineCount": lines, "path": path}),
    ))
}

/// Checks `args` against `schema`, then deserializes them into `T` (whose schema it is).
pub fn parse<T: DeserializeOwned>(
    schema: &Map<String, Value>,
    args: Value,
) -> Result<T, ToolError> {
    check(schema, &args)?;
    let args = match args {
        Value::Null => Value::Object(Map::new()),
        // Optional parameters given as `null` are omitted (see [`check`]).
        Value::Object(mut map) => {
            let required = required(schema);
            map.retain(|k, v| !v.is_null() || required.contains(&k.as_str()));
            Value::Object(map)
        }
        other => other,
    };
    serde_json::from_value(args).map_err(|e| {
        ToolError::new(
            ErrorCode::InvalidParams,
            format!("the arguments do not fit the input schema: {e}"),
        )
        .with_details(json!({"reason": e.to_string()}))
    })
}
