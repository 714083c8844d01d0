//! Static conditions, evaluated as pyright's binder evaluates them against its runtime: the
//! `#static-true?` / `#static-false?` query predicates (`queries/README.md`) hide the branches
//! pyright never binds.
//!
//! What is evaluated: `sys.version_info` compared with a tuple (`>= (3, 12)`, `(3,)`) or its
//! `[0]` with an integer; `sys.platform` and `os.name` compared (`==`, `!=`) with a string;
//! `TYPE_CHECKING` (any `x.TYPE_CHECKING` too), which is true; `True`, `False`, `None`, numbers,
//! strings, tuples and lists as their truth; `not`, `and`, `or` and parentheses around those.
//! Anything else is unknown, and so is an `and` or `or` that no known operand decides (one
//! false operand makes an `and` false, one true operand makes an `or` true: pyright's code
//! flow never reaches past it).

use std::cmp::Ordering;

use locus_doc::Document;
use tree_sitter::Node;

use crate::runtime::{Runtime, RuntimeVersion};

/// The value of the condition at `node` for `runtime`, or `None` when it is not static.
pub(crate) fn evaluate(node: Node, doc: &Document, runtime: &Runtime) -> Option<bool> {
    let text = |n: Node| doc.slice(n.start_byte(), n.end_byte());
    match node.kind() {
        "parenthesized_expression" => evaluate(node.named_child(0)?, doc, runtime),
        "not_operator" => evaluate(node.child_by_field_name("argument")?, doc, runtime).map(|b| !b),
        "boolean_operator" => {
            let left = evaluate(node.child_by_field_name("left")?, doc, runtime);
            let right = evaluate(node.child_by_field_name("right")?, doc, runtime);
            let operator = node.child_by_field_name("operator").map(text)?;
            match operator.as_str() {
                "and" if left == Some(false) || right == Some(false) => Some(false),
                "and" => Some(left? && right?),
                "or" if left == Some(true) || right == Some(true) => Some(true),
                "or" => Some(left? || right?),
                _ => None,
            }
        }
        "comparison_operator" => compare(node, doc, runtime),
        "identifier" => (text(node) == "TYPE_CHECKING").then_some(true),
        "attribute" => {
            let attribute = node.child_by_field_name("attribute")?;
            (text(attribute) == "TYPE_CHECKING").then_some(true)
        }
        "true" => Some(true),
        "false" | "none" => Some(false),
        "integer" => integer_is_nonzero(&text(node)),
        "string" | "concatenated_string" => string_value(node, doc).map(|s| !s.is_empty()),
        "tuple" | "list" => Some(node.named_child_count() > 0),
        _ => None,
    }
}

/// Whether an integer literal (`0`, `1_000`, `0x0b`, `0o0`, `10j`) is not zero.
fn integer_is_nonzero(literal: &str) -> Option<bool> {
    let literal = literal.replace('_', "").to_ascii_lowercase();
    let literal = literal.strip_suffix('j').unwrap_or(&literal);
    let digits = ["0x", "0o", "0b"]
        .iter()
        .find_map(|prefix| literal.strip_prefix(prefix))
        .unwrap_or(literal);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    Some(digits.chars().any(|c| c != '0'))
}

/// A two-operand comparison of `sys.version_info`, `sys.platform` or `os.name`.
fn compare(node: Node, doc: &Document, runtime: &Runtime) -> Option<bool> {
    if node.named_child_count() != 2 {
        return None;
    }
    let (left, right) = (node.named_child(0)?, node.named_child(1)?);
    let mut cursor = node.walk();
    let operator = node
        .children(&mut cursor)
        .find(|c| !c.is_named())
        .map(|c| doc.slice(c.start_byte(), c.end_byte()))?;
    let text = |n: Node| doc.slice(n.start_byte(), n.end_byte());
    let dotted = |n: Node, object: &str, attribute: &str| {
        n.kind() == "attribute"
            && n.child_by_field_name("object").is_some_and(|o| text(o) == object)
            && n.child_by_field_name("attribute").is_some_and(|a| text(a) == attribute)
    };
    if dotted(left, "sys", "version_info") && right.kind() == "tuple" {
        let ordering = runtime.version.compare(tuple_version(right, doc)?);
        return ordered(&operator, ordering);
    }
    if left.kind() == "subscript"
        && left.child_by_field_name("value").is_some_and(|v| dotted(v, "sys", "version_info"))
        && left.child_by_field_name("subscript").is_some_and(|s| text(s) == "0")
        && right.kind() == "integer"
    {
        let major = text(right).parse().ok()?;
        let ordering = runtime.version.major.cmp(&major);
        return ordered(&operator, ordering);
    }
    let actual = if dotted(left, "sys", "platform") {
        runtime.platform.sys_platform()
    } else if dotted(left, "os", "name") {
        runtime.platform.os_name()
    } else {
        return None;
    };
    let expected = string_value(right, doc)?;
    match operator.as_str() {
        "==" => Some(actual == expected),
        "!=" => Some(actual != expected),
        _ => None,
    }
}

/// The comparison `operator` applied to an ordering of the runtime against the other side.
fn ordered(operator: &str, ordering: Ordering) -> Option<bool> {
    Some(match operator {
        "<" => ordering == Ordering::Less,
        "<=" => ordering != Ordering::Greater,
        ">" => ordering == Ordering::Greater,
        ">=" => ordering != Ordering::Less,
        "==" => ordering == Ordering::Equal,
        "!=" => ordering != Ordering::Equal,
        _ => return None,
    })
}

/// `(3, 12)`, `(3, 12, 1, …)` or `(3,)` as a version (`(3,)` is 3.0).
fn tuple_version(tuple: Node, doc: &Document) -> Option<RuntimeVersion> {
    let mut cursor = tuple.walk();
    let numbers: Vec<Option<u32>> = tuple
        .named_children(&mut cursor)
        .map(|n| match n.kind() {
            "integer" => doc.slice(n.start_byte(), n.end_byte()).parse().ok(),
            _ => None,
        })
        .collect();
    match numbers.as_slice() {
        [Some(major)] => Some(RuntimeVersion::new(*major, 0)),
        [Some(major), Some(minor), rest @ ..] => Some(RuntimeVersion {
            major: *major,
            minor: *minor,
            micro: rest.first().copied().flatten(),
        }),
        _ => None,
    }
}

/// The value of a plain string literal (or several side by side); `None` for an f-string or
/// one with escapes.
fn string_value(node: Node, doc: &Document) -> Option<String> {
    let parts: Vec<Node> = match node.kind() {
        "string" => vec![node],
        "concatenated_string" => {
            let mut cursor = node.walk();
            node.named_children(&mut cursor).collect()
        }
        _ => return None,
    };
    let mut value = String::new();
    for part in parts {
        let mut cursor = part.walk();
        for child in part.named_children(&mut cursor) {
            match child.kind() {
                "string_start" | "string_end" => {}
                "string_content" => {
                    value.push_str(&doc.slice(child.start_byte(), child.end_byte()))
                }
                _ => return None,
            }
        }
        let start = doc.slice(part.start_byte(), part.start_byte() + 1);
        if start.eq_ignore_ascii_case("f") {
            return None;
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::integer_is_nonzero;

    #[test]
    fn integer_literals_are_true_unless_zero() {
        assert_eq!(integer_is_nonzero("0"), Some(false));
        assert_eq!(integer_is_nonzero("0x0"), Some(false));
        assert_eq!(integer_is_nonzero("0xb"), Some(true), "b is a hex digit");
        assert_eq!(integer_is_nonzero("0b10"), Some(true));
        assert_eq!(integer_is_nonzero("1_000"), Some(true));
        assert_eq!(integer_is_nonzero("00"), Some(false));
        assert_eq!(integer_is_nonzero("10j"), Some(true));
        assert_eq!(integer_is_nonzero("0j"), Some(false));
    }
}
