//! What the channels' MCP servers share: how they introduce themselves, their tools' schemas
//! and the error for a tool they do not have.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{ErrorCode, Implementation, ServerCapabilities, ServerConfig};
use serde_json::{Map, Value, json};

/// Locus, serving tools.
pub fn server_config() -> ServerConfig {
    let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
    info.server_info = Implementation::new("locus", env!("CARGO_PKG_VERSION")).with_title("Locus");
    info
}

/// The input schema of an object with `properties`, of which `required` are.
pub fn schema(properties: Value, required: &[&str]) -> Arc<Map<String, Value>> {
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), properties);
    s.insert("required".into(), json!(required));
    Arc::new(s)
}

/// The error for a call of a tool the channel does not have.
pub fn no_tool(name: &str) -> ErrorData {
    ErrorData::new(ErrorCode::METHOD_NOT_FOUND, format!("no tool {name}"), None)
}
