//! The shape of an adapter file, `adapters/<name>.toml`: what the adapter is called, which
//! languages it debugs, how to start it, how to talk to it, the arguments its `launch` and
//! `attach` requests start from, and how to install it.
//!
//! **Invariant:** strict. An unknown key, a missing field or a transport that names no way to
//! learn its port fails the parse with the key's name; `build.rs` parses every built-in file
//! with this same module, so a bad file fails the build. Only `serde` and `toml` are used here,
//! because `build.rs` includes this file as its own module.

use serde::Deserialize;

/// One debug adapter, as written in its file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AdapterDef {
    /// The adapter's name, also the file's stem (`"debugpy"`).
    pub name: String,
    /// The language ids it debugs (`"python"`).
    pub languages: Vec<String>,
    /// The shell command that installs it, shown when it cannot be found.
    pub install: String,
    /// How to start it, tried in order: the first whose program is found is used.
    #[serde(rename = "command")]
    pub commands: Vec<CommandDef>,
    /// How to talk to it once started.
    pub transport: TransportDef,
    /// The `launch` request's arguments before the caller's own are merged over them.
    #[serde(default)]
    pub launch: toml::Table,
    /// The `attach` request's arguments before the caller's own are merged over them.
    #[serde(default)]
    pub attach: toml::Table,
    /// The `type`s of `.vscode/launch.json` configurations this adapter serves (`"python"`,
    /// `"debugpy"`).
    #[serde(default)]
    pub types: Vec<String>,
    /// How an `attach` request names what to attach to: the arguments added for a process
    /// id, and for a `host:port` address. Absent when the adapter cannot.
    #[serde(default)]
    pub attach_by: AttachBy,
    /// How a test function is debugged (`debug_test`); absent when the adapter has no test
    /// runner Locus knows.
    #[serde(default)]
    pub test: Option<TestDef>,
    /// The exception filters (`setExceptionBreakpoints`) of each way to stop at exceptions.
    #[serde(default)]
    pub exceptions: ExceptionsDef,
}

/// The exception filters an adapter is sent to stop at uncaught exceptions, or at every one
/// raised; never stopping sends none. Filter ids are the adapter's own (its capabilities'
/// `exceptionBreakpointFilters`); one it does not declare is left out.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ExceptionsDef {
    /// Stop where an exception is not caught: the program would end there (a crash).
    #[serde(default)]
    pub uncaught: Vec<String>,
    /// Stop at every exception raised, caught or not.
    #[serde(default)]
    pub raised: Vec<String>,
    /// The adapter stops at a crash whatever it is sent (Delve at an unrecovered panic,
    /// lldb-dap at a fatal signal): with `never`, such a stop is continued at once.
    #[serde(default)]
    pub stops_at_crash: bool,
}

/// The arguments an `attach` request gets for each way of naming its target. Strings are
/// templates: one that is exactly `"{pid}"` or `"{port}"` becomes that number; `{host}`,
/// `{pid}` and `{port}` inside a longer string are replaced as text.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AttachBy {
    /// Added to attach to a local process by its id (`{pid}`).
    #[serde(default)]
    pub pid: Option<toml::Table>,
    /// Added to attach to a debug server listening at an address (`{host}`, `{port}`).
    #[serde(default)]
    pub address: Option<toml::Table>,
    /// The address is the adapter's own DAP server (debugpy's `--listen` runs one inside
    /// the program): Locus connects to it instead of starting the adapter.
    #[serde(default)]
    pub dap_server: bool,
}

/// How a test is recognised and run under the adapter.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TestDef {
    /// The runner's name, for messages (`"pytest"`, `"go test"`).
    pub runner: String,
    /// A function or method whose name starts with this is a test (`"test"`, `"Test"`).
    pub function_prefix: String,
    /// What joins the names of the classes around a test method and the method's own
    /// (`"::"`: `TestCart::test_total`); without it only functions outside classes are tests.
    #[serde(default)]
    pub separator: Option<String>,
    /// The `launch` arguments that run one test, merged over `[launch]`. Strings are
    /// templates: `{name}` is the test's name, `{file}` its file, `{dir}` the file's folder,
    /// `{workspace}` the workspace folder that holds the file (else the file's folder).
    pub launch: toml::Table,
    /// What opens a subtest's literal name in a test's body (`.Run("` in Go's
    /// `t.Run("case", …)`): with it, a name `TestX/case` is checked against the subtests the
    /// test names, since a runner told a subtest it does not have runs the test and passes.
    #[serde(default)]
    pub subtest_call: Option<String>,
}

/// One way to start an adapter. Exactly one of `program` and `python-module` is given.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CommandDef {
    /// A program name looked up on `PATH`, or an absolute path.
    #[serde(default)]
    pub program: Option<String>,
    /// A Python module run as `python -m <module>` by the first Python that has it.
    #[serde(default)]
    pub python_module: Option<String>,
    /// A file given to `program` as its first argument; `${env:NAME}` is replaced by the
    /// variable's value. The command is skipped when the variable is unset or the file is
    /// missing.
    #[serde(default)]
    pub script: Option<String>,
    /// The arguments after the program (and script). `{port}` is replaced by the port chosen
    /// for a `tcp` transport whose port is an `argument`.
    #[serde(default)]
    pub args: Vec<String>,
}

/// How Locus talks to a started adapter.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TransportDef {
    /// DAP over the adapter's stdin and stdout.
    Stdio,
    /// DAP over a TCP connection to 127.0.0.1.
    Tcp(TcpDef),
}

/// How a TCP adapter's port is learned.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TcpDef {
    /// `printed`: the adapter picks a port and prints it; `argument`: Locus picks a free port
    /// and passes it where an argument says `{port}`.
    pub port: PortSource,
    /// For `printed`: text on the stdout line that carries the address; the port is the
    /// number after the line's last `:`.
    #[serde(default)]
    pub listening: Option<String>,
}

/// Where a TCP adapter's port comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PortSource {
    /// The adapter prints the address it listens on.
    Printed,
    /// Locus chooses the port and passes it as an argument.
    Argument,
}

impl AdapterDef {
    /// Parses and checks one adapter file's text.
    pub fn parse(text: &str) -> Result<AdapterDef, String> {
        let def: AdapterDef = toml::from_str(text).map_err(|e| e.to_string())?;
        def.check()?;
        Ok(def)
    }

    /// The rules serde cannot express.
    fn check(&self) -> Result<(), String> {
        if self.commands.is_empty() {
            return Err(format!("adapter {}: at least one [[command]] is needed", self.name));
        }
        for (i, c) in self.commands.iter().enumerate() {
            if c.program.is_some() == c.python_module.is_some() {
                return Err(format!(
                    "adapter {}: command {} needs exactly one of `program` and `python-module`",
                    self.name,
                    i + 1
                ));
            }
            if c.script.is_some() && c.program.is_none() {
                return Err(format!(
                    "adapter {}: command {} has a `script` but no `program` to run it",
                    self.name,
                    i + 1
                ));
            }
        }
        if let Some(test) = &self.test
            && test.function_prefix.is_empty()
        {
            return Err(format!("adapter {}: [test] needs a `function-prefix`", self.name));
        }
        if let TransportDef::Tcp(tcp) = &self.transport {
            match tcp.port {
                PortSource::Printed if tcp.listening.is_none() => {
                    return Err(format!(
                        "adapter {}: a printed port needs `listening`, the text of the line that carries it",
                        self.name
                    ));
                }
                PortSource::Argument
                    if !self
                        .commands
                        .iter()
                        .all(|c| c.args.iter().any(|a| a.contains("{port}"))) =>
                {
                    return Err(format!(
                        "adapter {}: with `port = \"argument\"` every command passes `{{port}}`",
                        self.name
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }
}
