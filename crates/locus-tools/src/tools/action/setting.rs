//! `setting_get` and `setting_set`: read and change one of the editor's settings, in effect or
//! in the user or workspace scope.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{EDITOR_ACTION, ask, editor_for, names};
use crate::{Cx, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse, params};

/// `setting_get`: reads one of the editor's settings.
pub struct SettingGet;
/// `setting_set`: changes one of the editor's settings.
pub struct SettingSet;

/// A settings scope.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The user's settings, for every workspace.
    User,
    /// This workspace's settings.
    Workspace,
}

/// Parameters of `setting_get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingGetParams {
    /// The setting's key, as the editor names it.
    #[schemars(example = &"editor.tabSize", length(min = 1))]
    pub key: String,
    /// `user` or `workspace` (default: the value in effect).
    #[serde(default)]
    #[schemars(example = &"workspace", extend("enum" = ["user", "workspace"]))]
    pub scope: Option<String>,
}

/// Parameters of `setting_set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingSetParams {
    /// The setting's key, as the editor names it.
    #[schemars(example = &"editor.tabSize", length(min = 1))]
    pub key: String,
    /// The new value, any JSON value (`null` removes it from that scope).
    #[schemars(example = 2)]
    pub value: Value,
    /// `user` or `workspace` (default `workspace`).
    #[serde(default)]
    #[schemars(example = &"workspace", extend("enum" = ["user", "workspace"]))]
    pub scope: Option<String>,
}

/// What a setting tool answers: the editor's answer (`{key, scope, value, …}`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SettingData(pub Value);

const SETTING_WHEN: WhenToUse = WhenToUse {
    use_for: &[
        "reading how the user's editor is configured (indentation, formatter, language options)",
        "changing an editor setting the user asked for",
    ],
    dont_use_for: &[
        "project configuration files (edit them as files)",
        "settings the user did not ask to change",
    ],
    patterns: &["setting_get before setting_set, and say what the value was"],
};

/// `user` or `workspace` (the schema says so too; this is the check).
fn scope_of(scope: Option<&str>) -> Result<Option<Scope>, ToolError> {
    match scope {
        None => Ok(None),
        Some("user") => Ok(Some(Scope::User)),
        Some("workspace") => Ok(Some(Scope::Workspace)),
        Some(other) => Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("`scope` is `{other}`: expected `user` or `workspace`"),
        )
        .with_details(json!({"parameter": "scope"}))),
    }
}

fn setting_key(key: &str) -> Result<(), ToolError> {
    if key.trim().is_empty() {
        return Err(ToolError::new(ErrorCode::InvalidParams, "`key` is empty")
            .with_details(json!({"parameter": "key"})));
    }
    Ok(())
}

impl Tool for SettingGet {
    type Params = SettingGetParams;
    type Output = SettingData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "setting_get",
            title: "Read an editor setting",
            description: "Read one of the editor's settings by key, in effect or in the user or workspace scope",
            when_to_use: SETTING_WHEN,
            effect: Effect::Reads,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: SettingGetParams, cx: Cx) -> Result<SettingData, ToolError> {
        setting_key(&p.key)?;
        let scope = scope_of(p.scope.as_deref())?;
        let editor = editor_for(&cx, names::SETTING_GET)?;
        let mut params = json!({"key": p.key});
        if let Some(scope) = scope {
            params["scope"] = json!(scope);
        }
        let answer = ask(&cx, &editor, names::SETTING_GET, params).await?;
        Ok(SettingData(with_key(answer, &p.key)))
    }

    fn summary(&self, d: &SettingData, _: &Cx) -> String {
        let scope =
            d.0.get("scope").and_then(Value::as_str).map(|s| format!(" ({s})")).unwrap_or_default();
        format!(
            "{}{scope} = {}",
            d.0["key"].as_str().unwrap_or("?"),
            d.0.get("value").unwrap_or(&Value::Null)
        )
    }
}

impl Tool for SettingSet {
    type Params = SettingSetParams;
    type Output = SettingData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "setting_set",
            title: "Change an editor setting",
            description: "Change one of the editor's settings in the workspace (default) or user scope",
            when_to_use: SETTING_WHEN,
            effect: Effect::Destroys,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: SettingSetParams, cx: Cx) -> Result<SettingData, ToolError> {
        setting_key(&p.key)?;
        let scope = scope_of(p.scope.as_deref())?.unwrap_or(Scope::Workspace);
        let editor = editor_for(&cx, names::SETTING_SET)?;
        let params = json!({"key": p.key, "value": p.value, "scope": scope});
        let answer = ask(&cx, &editor, names::SETTING_SET, params).await?;
        let mut data = with_key(answer, &p.key);
        if data.get("scope").is_none() {
            data["scope"] = json!(scope);
        }
        if data.get("value").is_none() {
            data["value"] = p.value;
        }
        Ok(SettingData(data))
    }

    fn summary(&self, d: &SettingData, _: &Cx) -> String {
        let was = d.0.get("previous").map(|v| format!(" (was {v})")).unwrap_or_default();
        format!(
            "Set {} ({}) to {}{was}",
            d.0["key"].as_str().unwrap_or("?"),
            d.0["scope"].as_str().unwrap_or("?"),
            d.0.get("value").unwrap_or(&Value::Null)
        )
    }
}

/// The answer as an object with `key` (an editor may answer the bare value).
fn with_key(answer: Value, key: &str) -> Value {
    match answer {
        Value::Object(mut o) => {
            o.entry("key").or_insert_with(|| json!(key));
            Value::Object(o)
        }
        other => json!({"key": key, "value": other}),
    }
}
