//! Adapters as data: the built-in `adapters/*.toml` (embedded by `build.rs`), looked up by
//! name or language, and resolved to a command that runs on this machine.
//!
//! **Invariants.**
//! - No adapter's name appears in Rust code: what differs between adapters (command, transport,
//!   launch defaults, install hint) is in its file.
//! - A missing adapter is [`Error::AdapterNotFound`], whose hint is the file's install command.
//! - Resolution reads the file system and `PATH`, and runs Python only to ask whether it has a
//!   module; it starts nothing else.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::def::{AdapterDef, TransportDef};
use crate::error::Error;

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/adapters.rs"));
}

/// The built-in adapter files' texts, by name (for tests that adjust one).
#[cfg(feature = "testing")]
pub(crate) fn builtin_texts() -> &'static [(&'static str, &'static str)] {
    builtin::BUILTIN
}

/// The adapters Locus knows.
#[derive(Debug, Clone)]
pub struct Registry {
    adapters: Vec<AdapterDef>,
}

impl Registry {
    /// The built-in adapters (checked when the crate was built).
    pub fn builtin() -> Registry {
        let adapters = builtin::BUILTIN
            .iter()
            .map(|(name, text)| {
                AdapterDef::parse(text).unwrap_or_else(|e| {
                    panic!("built-in adapter {name} was checked at build time: {e}")
                })
            })
            .collect();
        Registry { adapters }
    }

    /// A registry of the given files' texts (for user files and tests); strict as the
    /// built-in ones are.
    pub fn from_texts<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Registry, Error> {
        let mut adapters = Vec::new();
        for (file, text) in files {
            let def = AdapterDef::parse(text)
                .map_err(|message| Error::Config { file: file.to_string(), message })?;
            adapters.push(def);
        }
        Ok(Registry { adapters })
    }

    /// Every adapter, in name order for the built-in ones.
    pub fn all(&self) -> &[AdapterDef] {
        &self.adapters
    }

    /// The adapter of this name.
    pub fn get(&self, name: &str) -> Result<&AdapterDef, Error> {
        self.adapters
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| Error::UnknownAdapter(format!("the name {name:?}")))
    }

    /// The adapter that serves `.vscode/launch.json` configurations of this `type`.
    pub fn for_type(&self, kind: &str) -> Result<&AdapterDef, Error> {
        self.adapters.iter().find(|a| a.types.iter().any(|t| t == kind)).ok_or_else(|| {
            Error::UnknownAdapter(format!("launch.json configurations of type {kind:?}"))
        })
    }

    /// The first adapter that debugs this language id.
    pub fn for_language(&self, language: &str) -> Result<&AdapterDef, Error> {
        self.adapters
            .iter()
            .find(|a| a.languages.iter().any(|l| l == language))
            .ok_or_else(|| Error::UnknownAdapter(format!("the language {language:?}")))
    }
}

/// Where resolution looks, besides the process's own environment.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// Searched instead of `PATH` when given.
    pub path: Option<OsString>,
    /// The Python tried first for `python-module` commands (before `LOCUS_DAP_PYTHON`,
    /// `python3` and `python`).
    pub python: Option<PathBuf>,
}

/// An adapter resolved to a command on this machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Launcher {
    /// The adapter's name.
    pub adapter: String,
    /// The program to run.
    pub program: PathBuf,
    /// Its arguments; `{port}` is still to be replaced for a port given as an argument.
    pub args: Vec<String>,
    /// How to talk to it.
    pub transport: TransportDef,
}

impl Launcher {
    /// The command line, for messages and `debuggerState`.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl AdapterDef {
    /// The first of the file's commands that can run here.
    pub fn resolve(&self, lookup: &Lookup) -> Result<Launcher, Error> {
        let mut tried = Vec::new();
        for command in &self.commands {
            let launcher = |program: PathBuf, mut args: Vec<String>| {
                args.extend(command.args.iter().cloned());
                Launcher {
                    adapter: self.name.clone(),
                    program,
                    args,
                    transport: self.transport.clone(),
                }
            };
            if let Some(module) = &command.python_module {
                for python in pythons(lookup) {
                    tried.push(format!("{} -m {module}", python.display()));
                    if let Some(python) = find_program(&python, lookup)
                        && python_has_module(&python, module)
                    {
                        return Ok(launcher(python, vec!["-m".into(), module.clone()]));
                    }
                }
                continue;
            }
            let Some(program) = &command.program else { continue };
            let mut first = Vec::new();
            if let Some(script) = &command.script {
                let Some(script) = expand_env(script) else {
                    tried.push(format!("{program} {script} (the variable is unset)"));
                    continue;
                };
                if !Path::new(&script).is_file() {
                    tried.push(format!("{program} {script} (no such file)"));
                    continue;
                }
                first.push(script);
            }
            tried.push(program.clone());
            if let Some(found) = find_program(Path::new(program), lookup) {
                return Ok(launcher(found, first));
            }
        }
        Err(Error::AdapterNotFound {
            adapter: self.name.clone(),
            tried,
            install: self.install.clone(),
        })
    }

    /// The `launch` request's arguments: the file's defaults with `overrides` merged over
    /// them key by key (a `null` override removes the default).
    pub fn launch_arguments(&self, overrides: &Value) -> Value {
        merge(&self.launch, overrides)
    }

    /// The `attach` request's arguments, merged as [`AdapterDef::launch_arguments`] does.
    pub fn attach_arguments(&self, overrides: &Value) -> Value {
        merge(&self.attach, overrides)
    }

    /// The `attach` request's arguments for a target: the attach defaults, then what the
    /// file's `attach-by` adds for that kind of target, then `overrides`.
    /// [`Error::Unsupported`] when the adapter cannot attach that way.
    pub fn attach_arguments_to(
        &self,
        target: &AttachTarget,
        overrides: &Value,
    ) -> Result<Value, Error> {
        let (template, vars, how) = match target {
            AttachTarget::Pid(pid) => {
                (&self.attach_by.pid, vec![("pid", Value::from(*pid))], "to a process id")
            }
            AttachTarget::Address { host, port } => (
                &self.attach_by.address,
                vec![("host", Value::from(host.clone())), ("port", Value::from(*port))],
                "to a host:port address",
            ),
        };
        let filled = match template {
            Some(template) => fill(template, &vars),
            // An address that is the adapter itself needs nothing more.
            None if self.attach_by.dap_server && matches!(target, AttachTarget::Address { .. }) => {
                Value::Object(Default::default())
            }
            None => {
                return Err(Error::Unsupported(format!("{} cannot attach {how}", self.name)));
            }
        };
        let mut out = merge(&self.attach, &filled);
        overlay(&mut out, overrides);
        Ok(out)
    }

    /// The `launch` request's arguments that run one test (`name`, in `file`): the launch
    /// defaults, then the file's `[test.launch]`, then `overrides`. [`Error::Unsupported`]
    /// when the adapter has no test runner.
    pub fn test_arguments(
        &self,
        name: &str,
        file: &Path,
        workspace: &Path,
        overrides: &Value,
    ) -> Result<Value, Error> {
        let Some(test) = &self.test else {
            return Err(Error::Unsupported(format!(
                "{} has no test runner Locus knows",
                self.name
            )));
        };
        let dir = file.parent().unwrap_or(Path::new("/"));
        let vars = [
            ("name", Value::from(name)),
            ("file", Value::from(file.display().to_string())),
            ("dir", Value::from(dir.display().to_string())),
            ("workspace", Value::from(workspace.display().to_string())),
        ];
        let mut out = merge(&self.launch, &fill(&test.launch, &vars));
        overlay(&mut out, overrides);
        Ok(out)
    }
}

/// What `attach` attaches to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachTarget {
    /// A local process.
    Pid(u32),
    /// A debug server listening at an address.
    Address {
        /// Its host.
        host: String,
        /// Its port.
        port: u16,
    },
}

/// A template table as JSON with its `{var}`s filled: a string that is exactly one variable
/// takes the variable's value (a number stays a number); other strings have them replaced as
/// text. Nested tables and arrays are filled too.
fn fill(template: &toml::Table, vars: &[(&str, Value)]) -> Value {
    fn walk(v: Value, vars: &[(&str, Value)]) -> Value {
        match v {
            Value::String(s) => {
                for (k, val) in vars {
                    if s == format!("{{{k}}}") {
                        return val.clone();
                    }
                }
                let mut s = s;
                for (k, val) in vars {
                    let text = match val {
                        Value::String(t) => t.clone(),
                        other => other.to_string(),
                    };
                    s = s.replace(&format!("{{{k}}}"), &text);
                }
                Value::String(s)
            }
            Value::Array(a) => Value::Array(a.into_iter().map(|v| walk(v, vars)).collect()),
            Value::Object(o) => {
                Value::Object(o.into_iter().map(|(k, v)| (k, walk(v, vars))).collect())
            }
            other => other,
        }
    }
    walk(serde_json::to_value(template).unwrap_or(Value::Null), vars)
}

/// `overrides` merged over `out` key by key (a `null` override removes the key).
fn overlay(out: &mut Value, overrides: &Value) {
    if let (Some(out), Some(overrides)) = (out.as_object_mut(), overrides.as_object()) {
        for (k, v) in overrides {
            if v.is_null() {
                out.remove(k);
            } else {
                out.insert(k.clone(), v.clone());
            }
        }
    }
}

fn merge(defaults: &toml::Table, overrides: &Value) -> Value {
    let mut out =
        serde_json::to_value(defaults).unwrap_or_else(|_| Value::Object(Default::default()));
    overlay(&mut out, overrides);
    out
}

fn pythons(lookup: &Lookup) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = lookup.python.iter().cloned().collect();
    if let Some(p) = std::env::var_os("LOCUS_DAP_PYTHON") {
        out.push(PathBuf::from(p));
    }
    out.push("python3".into());
    out.push("python".into());
    out
}

/// `program` itself when it is a path to an executable file, else the first match on the
/// search path.
fn find_program(program: &Path, lookup: &Lookup) -> Option<PathBuf> {
    locus_platform::program::find(program, lookup.path.as_deref())
}

fn python_has_module(python: &Path, module: &str) -> bool {
    let check = format!(
        "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module:?}) else 1)"
    );
    std::process::Command::new(python)
        .args(["-c", &check])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Replaces `${env:NAME}` by the variable's value; `None` when one is unset or empty.
fn expand_env(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("${env:") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 6..];
        let end = after.find('}')?;
        let value = std::env::var(&after[..end]).ok().filter(|v| !v.is_empty())?;
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_built_in_adapters_are_there() {
        let r = Registry::builtin();
        let names: Vec<&str> = r.all().iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["debugpy", "delve", "js-debug", "lldb-dap"]);
        assert_eq!(r.for_language("python").unwrap().name, "debugpy");
        assert_eq!(r.for_language("cpp").unwrap().name, "lldb-dap");
        assert_eq!(r.for_language("go").unwrap().name, "delve");
        assert_eq!(r.for_language("typescript").unwrap().name, "js-debug");
        assert_eq!(r.get("cobol").unwrap_err().code(), "E_ADAPTER_NOT_FOUND");
    }

    #[test]
    fn adapter_files_are_strict() {
        let base = "name = \"x\"\nlanguages = []\ninstall = \"apt-get install x\"\n[[command]]\nprogram = \"x\"\n";
        assert!(
            Registry::from_texts([("x", &*format!("{base}[transport]\nkind = \"stdio\"\n"))])
                .is_ok()
        );
        let unknown = format!("{base}colour = \"red\"\n[transport]\nkind = \"stdio\"\n");
        let err = Registry::from_texts([("x.toml", &*unknown)]).unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
        let bad_transport = format!("{base}[transport]\nkind = \"pigeon\"\n");
        assert!(Registry::from_texts([("x.toml", &*bad_transport)]).is_err());
        let no_port = format!("{base}[transport]\nkind = \"tcp\"\nport = \"argument\"\n");
        let err = Registry::from_texts([("x.toml", &*no_port)]).unwrap_err();
        assert!(err.to_string().contains("{port}"), "{err}");
    }

    #[test]
    fn a_missing_adapter_names_its_install_command() {
        let r = Registry::builtin();
        let lookup = Lookup { path: Some(OsString::from("/nonexistent")), python: None };
        let err = r.get("lldb-dap").unwrap().resolve(&lookup).unwrap_err();
        assert_eq!(err.code(), "E_ADAPTER_NOT_FOUND");
        assert_eq!(err.hint(), "Install it: apt-get install -y lldb-19");
        assert!(err.to_string().contains("lldb-dap-19"), "{err}");
    }

    #[test]
    fn launch_defaults_merge_under_the_callers_arguments() {
        let r = Registry::builtin();
        let args = r.get("debugpy").unwrap().launch_arguments(
            &json!({"program": "/a.py", "justMyCode": false, "redirectOutput": null}),
        );
        assert_eq!(args["type"], "python");
        assert_eq!(args["console"], "internalConsole");
        assert_eq!(args["justMyCode"], false);
        assert_eq!(args["program"], "/a.py");
        assert!(args.get("redirectOutput").is_none());
    }

    #[test]
    fn env_variables_expand() {
        assert_eq!(expand_env("plain"), Some("plain".into()));
        assert_eq!(expand_env("${env:LOCUS_DAP_SURELY_UNSET_VARIABLE}/x"), None);
        let home = std::env::var("PATH").unwrap();
        assert_eq!(expand_env("${env:PATH}!"), Some(format!("{home}!")));
    }
}
