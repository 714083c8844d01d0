//! `debug_attach`: debug a program that is already running, by its process id or by the
//! address of the debug server it listens on. What each adapter's `attach` request needs is
//! in its file (`attach-by`); a session Locus attached to leaves the program running when it
//! stops.

use std::path::Path;

use locus_dap::AttachTarget;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::session::{Launched, one_shot_error, open};
use super::{BreakOnParam, Debugger, dap_error, debug_tool, exactly_one, spec};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// Parameters of `debug_attach`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachParams {
    /// The process id of a running program on this machine; give this or `address`.
    #[serde(default)]
    #[schemars(example = 4242, range(min = 1))]
    pub pid: Option<u32>,
    /// `host:port` of a debug server the program listens on (`python -m debugpy --listen
    /// 5678`, `node --inspect=9229`); give this or `pid`. A bare port means 127.0.0.1.
    #[serde(default)]
    #[schemars(example = &"127.0.0.1:5678")]
    pub address: Option<String>,
    /// The debug adapter by name (debugpy, delve, lldb-dap, js-debug); by the process's
    /// executable for `pid`, by the editor's file for `address`, when omitted.
    #[serde(default)]
    #[schemars(example = &"debugpy")]
    pub adapter: Option<String>,
    /// Where exceptions stop the program in this session: `uncaught` (where it would crash),
    /// `raised` (at every exception, caught or not) or `never`; default: debug_break_on's
    /// choice, else `uncaught`.
    #[serde(rename = "breakOn", default)]
    #[schemars(example = &"uncaught")]
    pub break_on: Option<BreakOnParam>,
}

debug_tool!(
    /// `debug_attach`: attach to a running program.
    DebugAttach,
    AttachParams,
    spec(
        "debug_attach",
        "Attach the debugger",
        "Attach a debug adapter to a program that is already running, by process id or by the host:port of its debug server, and answer the new session's id; stopping the session leaves the program running",
        WhenToUse {
            use_for: &[
                "debugging a server or long-running program without restarting it",
                "a program started with its debug server listening (debugpy --listen, node --inspect)",
            ],
            dont_use_for: &["a program Locus can start itself (use debug_start)"],
            patterns: &[
                "breakpoint_set, then debug_attach, then debug_wait_for_stop",
                "debug_stop detaches; the program goes on",
            ],
        },
        true,
        Effect::Changes
    ),
    attach,
    attach_summary
);

async fn attach(d: &Debugger, p: AttachParams, cx: &Cx) -> Result<Value, ToolError> {
    let which = exactly_one(
        &[("pid", p.pid.is_some()), ("address", p.address.is_some())],
        "what to attach to",
    )?;
    let (target, command_line, language) = if which == 0 {
        let pid = p.pid.expect("checked");
        let info = locus_platform::process::inspect(pid);
        if info.is_none() && !locus_platform::process::alive(pid) {
            return Err(ToolError::new(ErrorCode::NotFound, format!("no process {pid}"))
                .with_hint("Give the id of a running process (ps lists them)")
                .with_details(json!({"pid": pid})));
        }
        let info = info.unwrap_or_default();
        let command_line = match &info.args {
            Some(args) => args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
            None => info.executable.as_deref().map(|e| e.display().to_string()).unwrap_or_default(),
        };
        let language = info.executable.as_deref().and_then(process_language);
        (AttachTarget::Pid(pid), command_line, language)
    } else {
        let address = p.address.as_deref().expect("checked");
        let (host, port) = parse_address(address)?;
        let language = cx.editor_context.as_deref().and_then(|c| {
            let path = c.file.file_path()?;
            let path = Path::new(path);
            let first = std::fs::read_to_string(path).ok();
            let first = first.as_deref().and_then(|t| t.lines().next());
            Some(locus_scopes::Registry::builtin().for_path(path, first)?.id())
        });
        (AttachTarget::Address { host: host.clone(), port }, format!("{host}:{port}"), language)
    };
    let def = match (&p.adapter, language) {
        (Some(name), _) => d.registry.get(name),
        (None, Some(language)) => d.registry.for_language(language),
        (None, None) => {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                "cannot tell which debug adapter to attach with",
            )
            .with_hint("Name it with `adapter` (debugpy, delve, lldb-dap, js-debug)")
            .with_details(json!({"parameter": "adapter"})));
        }
    }
    .map_err(dap_error)?
    .clone();
    if cx.host.one_shot() {
        return Err(one_shot_error());
    }
    let arguments = def.attach_arguments_to(&target, &json!({})).map_err(dap_error)?;
    let cwd = cx.host.status().workspace_folders.into_iter().next();
    let server = match &target {
        AttachTarget::Address { host, port } if def.attach_by.dap_server => {
            Some((host.clone(), *port))
        }
        _ => None,
    };
    let launched = Launched {
        def,
        attach: true,
        server,
        arguments,
        cwd,
        command_line,
        program: match &target {
            AttachTarget::Pid(pid) => Some(format!("process {pid}")),
            AttachTarget::Address { host, port } => Some(format!("{host}:{port}")),
        },
        break_on: p.break_on.map(Into::into),
    };
    let mut data = open(d, launched, None).await?;
    if let AttachTarget::Pid(pid) = target
        && data["pid"].is_null()
    {
        data["pid"] = json!(pid);
    }
    Ok(data)
}

/// `host:port`, `[v6]:port`, `:port` or a bare port (127.0.0.1).
fn parse_address(address: &str) -> Result<(String, u16), ToolError> {
    let bad = || {
        ToolError::new(
            ErrorCode::InvalidParams,
            format!("parameter `address` is {address:?}: expected host:port"),
        )
        .with_details(json!({"parameter": "address", "example": "127.0.0.1:5678"}))
    };
    let (host, port) = match address.rsplit_once(':') {
        Some((host, port)) => (host.trim_start_matches('[').trim_end_matches(']'), port),
        None => ("", address),
    };
    let port: u16 = port.parse().map_err(|_| bad())?;
    if port == 0 {
        return Err(bad());
    }
    let host = if host.is_empty() { "127.0.0.1" } else { host };
    Ok((host.to_string(), port))
}

/// The language of a process, from its executable: Python and Node by name, Go by the build
/// information the Go linker writes into every binary, C otherwise (lldb-dap debugs any
/// native program). `None` when the executable cannot be read.
fn process_language(exe: &Path) -> Option<&'static str> {
    let name = exe.file_name()?.to_string_lossy().to_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    if name.starts_with("python") || name.starts_with("pypy") {
        return Some("python");
    }
    if name == "node" || name.starts_with("nodejs") {
        return Some("javascript");
    }
    let file = std::fs::File::open(exe).ok()?;
    if elf_sections(file).iter().any(|name| name == b".go.buildinfo") {
        return Some("go");
    }
    Some("c")
}

/// The section names of a 64-bit little-endian ELF file (empty for anything else), reading
/// only the header, the section table and the section names, each bounded, with checked
/// arithmetic on the file's offsets (a file may lie). The `object` crate is not in the
/// dependency tree, and a few fixed offsets of the ELF header are all this needs.
fn elf_sections<R: std::io::Read + std::io::Seek>(mut file: R) -> Vec<Vec<u8>> {
    use std::io::SeekFrom;
    /// More sections than any real binary has; the names' table is small too.
    const MAX_SECTIONS: usize = 4096;
    const MAX_NAMES: usize = 1 << 20;
    let mut read_at = |at: u64, len: usize| -> Option<Vec<u8>> {
        file.seek(SeekFrom::Start(at)).ok()?;
        let mut buf = vec![0; len];
        file.read_exact(&mut buf).ok()?;
        Some(buf)
    };
    let u16_at =
        |b: &[u8], at: usize| Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?));
    let u32_at =
        |b: &[u8], at: usize| Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?));
    let u64_at =
        |b: &[u8], at: usize| Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?));
    let mut names = || -> Option<Vec<Vec<u8>>> {
        let header = read_at(0, 0x40)?;
        // "\x7fELF", 64-bit, little-endian.
        if header.get(..6)? != b"\x7fELF\x02\x01" {
            return None;
        }
        let offset = u64_at(&header, 0x28)?;
        let size = usize::from(u16_at(&header, 0x3a)?);
        let count = usize::from(u16_at(&header, 0x3c)?);
        let strings = usize::from(u16_at(&header, 0x3e)?);
        // A 64-bit section header is 0x40 bytes: its name at 0, offset at 0x18, size at 0x20.
        if size < 0x40 || count > MAX_SECTIONS || strings >= count {
            return None;
        }
        let table = read_at(offset, count.checked_mul(size)?)?;
        let section =
            |i: usize| table.get(i.checked_mul(size)?..i.checked_mul(size)?.checked_add(size)?);
        let string_section = section(strings)?;
        let names_len = usize::try_from(u64_at(string_section, 0x20)?).ok()?.min(MAX_NAMES);
        let names = read_at(u64_at(string_section, 0x18)?, names_len)?;
        let mut out = Vec::new();
        for i in 0..count {
            let name = usize::try_from(u32_at(section(i)?, 0)?).ok()?;
            let rest = names.get(name..)?;
            out.push(rest[..rest.iter().position(|b| *b == 0)?].to_vec());
        }
        Some(out)
    };
    names().unwrap_or_default()
}

fn attach_summary(d: &Value) -> String {
    format!(
        "Attached debug session {} ({}) to {} [pid {}], {}",
        d["sessionId"].as_str().unwrap_or("?"),
        d["adapter"].as_str().unwrap_or("?"),
        d["targetCommandLine"].as_str().unwrap_or("?"),
        d["pid"],
        d["state"].as_str().unwrap_or("?")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse() {
        assert_eq!(parse_address("127.0.0.1:5678").unwrap(), ("127.0.0.1".into(), 5678));
        assert_eq!(parse_address("5678").unwrap(), ("127.0.0.1".into(), 5678));
        assert_eq!(parse_address(":9229").unwrap(), ("127.0.0.1".into(), 9229));
        assert_eq!(parse_address("[::1]:9229").unwrap(), ("::1".into(), 9229));
        assert_eq!(parse_address("host:x").unwrap_err().code, ErrorCode::InvalidParams);
        assert!(parse_address("host:0").is_err());
    }

    #[test]
    fn a_lying_elf_header_gives_no_sections() {
        use std::io::Cursor;
        assert!(elf_sections(Cursor::new(Vec::new())).is_empty());
        assert!(elf_sections(Cursor::new(b"not an elf file at all".to_vec())).is_empty());
        // Offsets and counts at their maximum: no overflow, no huge allocation.
        let mut bytes = vec![0u8; 0x40];
        bytes[..6].copy_from_slice(b"\x7fELF\x02\x01");
        bytes[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
        bytes[0x3a..0x3c].copy_from_slice(&u16::MAX.to_le_bytes());
        bytes[0x3c..0x3e].copy_from_slice(&4000u16.to_le_bytes());
        bytes[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        assert!(elf_sections(Cursor::new(bytes.clone())).is_empty());
        bytes[0x28..0x30].copy_from_slice(&0x40u64.to_le_bytes());
        bytes[0x3a..0x3c].copy_from_slice(&0x40u16.to_le_bytes());
        bytes[0x3c..0x3e].copy_from_slice(&2u16.to_le_bytes());
        // Two section headers, the names' table claiming to be past the end.
        bytes.extend(vec![0u8; 0x80]);
        bytes[0x40 + 0x40 + 0x18..0x40 + 0x40 + 0x20].copy_from_slice(&u64::MAX.to_le_bytes());
        bytes[0x40 + 0x40 + 0x20..0x40 + 0x40 + 0x28].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(elf_sections(Cursor::new(bytes)).is_empty());
    }

    #[test]
    fn this_binarys_sections_are_read() {
        let file = std::fs::File::open(std::env::current_exe().unwrap()).unwrap();
        let names = elf_sections(file);
        assert!(names.iter().any(|n| n == b".text"), "{names:?}");
    }

    #[test]
    fn this_process_is_native() {
        let me = locus_platform::process::inspect(std::process::id()).unwrap();
        assert_eq!(process_language(&me.executable.unwrap()), Some("c"));
    }
}
